/**
 * The safety room: the display-model vocabulary (docs/export-safety.md) held against a parsed
 * export, rule for rule and path for path as the service's check. It reads the JSON room's values
 * through the SNBT room and answers with a {@link dev.exportservice.client.internal.safety.Refusal};
 * the client turns that into its exception. Internal: not part of the API, and may change in any
 * release.
 */
package dev.exportservice.client.internal.safety;
