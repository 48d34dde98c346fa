/**
 * The types room: the display-model vocabulary per version (src/export-safety/types/), read from
 * the vocabulary room's file: every word, limit and pattern, the value type of each entity key in
 * each era, what a typed value may hold, and the refusal the vocabulary's reasons and messages
 * name. It stands below the syntax, rules, readers and walk rooms and names none of them.
 * Internal: not part of the API, and may change in any release.
 */
package dev.exportservice.client.internal.types;
