/**
 * The walk room: the display-model vocabulary (docs/export-safety.md) held against a parsed
 * export, rule for rule and path for path as the service's check (src/export-safety/walk/). It
 * walks the JSON room's values, reads each passenger string with the syntax room's typed reader
 * in the export's declared version, hands each command and passenger to the rules room, and
 * answers with a {@link dev.exportservice.client.internal.types.Refusal}; the client turns that
 * into its exception. Internal: not part of the API, and may change in any release.
 */
package dev.exportservice.client.internal.walk;
