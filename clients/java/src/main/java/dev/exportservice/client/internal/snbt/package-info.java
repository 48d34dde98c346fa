/**
 * The game's text forms as exports write them: SNBT (entity data), read by the library's one
 * SNBT reader ({@link dev.exportservice.client.internal.snbt.SnbtReader}, the service's check's
 * grammar and limits), and target selectors. Reads its words and limit from the vocabulary room
 * and depends on nothing else of the library; the model reads through it, and the safety check
 * extends its reader. Internal: not part of the API, and may change in any release.
 */
package dev.exportservice.client.internal.snbt;
