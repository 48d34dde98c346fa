/**
 * The vocabulary room: the service's display-model vocabulary (src/export-safety/types/vocabulary.json,
 * the one file the TypeScript check imports), which the build copies into the jar beside this
 * room's classes. Every word, limit and pattern the SNBT reader and the safety check use is read
 * from it here: there is no Java copy of them. Reads through the JSON room only. Internal: not
 * part of the API, and may change in any release.
 */
package dev.exportservice.client.internal.vocabulary;
