/**
 * The walk room's face: the one pass over an export's JSON document that types every member of
 * `content` and `datapack` and hands each command and passenger to the rules. It imports every
 * other room of the check, and no room imports it but the check's own face.
 */
export { type ExportCheckPass, findUnsafeExport, startExportCheck } from './check.js'
