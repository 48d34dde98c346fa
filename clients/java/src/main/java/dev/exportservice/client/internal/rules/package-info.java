/**
 * The rules room: the commands a frame or hitbox may run, the entities and keys a part may have,
 * and every plugin reader's reading of the passengers held to the same rules
 * (src/export-safety/rules/). It uses the types, syntax and readers rooms, and never the walk.
 * Internal: not part of the API, and may change in any release.
 */
package dev.exportservice.client.internal.rules;
