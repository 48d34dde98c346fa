/**
 * The game's text forms as exports write them: SNBT (entity data) and target selectors. Reads its
 * limit from the vocabulary room and depends on nothing else of the library; the model and the safety check both read through it. Internal: not
 * part of the API, and may change in any release.
 */
package dev.exportservice.client.internal.snbt;
