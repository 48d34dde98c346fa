/**
 * The storage room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the KV record of an export, its key and metadata, the chunked
 * read's timeout, which the room's own code uses and the tests and the bench reach. Why a second
 * face: docs/architecture.md#the-layering-rules.
 */
export type { ExportMetadata } from './export-metadata'
export {
  exportKey,
  exportMetadata,
  KV_MAX_VALUE_BYTES,
  KV_WRITE_TIMEOUT_MS,
  type PlaceholderCount,
  putExport,
  substitutedLength,
} from './export-store'
export { READ_STALL_TIMEOUT_MS } from './large-chunks'
