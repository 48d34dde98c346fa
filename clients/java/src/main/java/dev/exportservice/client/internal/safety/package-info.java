/**
 * The safety room: the display-model vocabulary (docs/export-safety.md) held against a parsed
 * export, rule for rule and path for path as the service's check. It reads the JSON room's values
 * with the SNBT room's reader, extended to type every value as it reads it (the service's order
 * of faults), runs the plugins' own readers on what it accepted, takes every word, type, limit and
 * message from the vocabulary room, and answers with a
 * {@link dev.exportservice.client.internal.safety.Refusal};
 * the client turns that into its exception. Internal: not part of the API, and may change in any
 * release.
 */
package dev.exportservice.client.internal.safety;
