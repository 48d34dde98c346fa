/**
 * The syntax room: the SNBT room's reader extended to type every value as it reads it, in the
 * export's declared version, and the JSON text inside it (src/export-safety/syntax/). It uses the
 * types room and names no rule, reader or walk. Internal: not part of the API, and may change in
 * any release.
 */
package dev.exportservice.client.internal.syntax;
