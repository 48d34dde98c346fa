/**
 * The readers room: the public plugins' own readers of a passenger string and a command, written
 * again as code (src/export-safety/readers/). Text in, entities out: it reads only the readers'
 * names from the vocabulary room and names no other room of the check. Internal: not part of the
 * API, and may change in any release.
 */
package dev.exportservice.client.internal.readers;
