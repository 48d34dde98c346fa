/**
 * The storage room's face (docs/storage.md): an export's KV record, written by publishing and
 * read by the read path, its metadata (shared with the allocator's grace copies), the chunked
 * reading of a stored value, and the simulated KV lag of development and tests.
 */
export { type ExportMetadata, isExportMetadata } from './export-metadata'
export {
  exportMetadata,
  openExport,
  type PlaceholderCount,
  putExport,
  type StoredExport,
  substitutedLength,
} from './export-store'
export { largeChunks } from './large-chunks'
export { simulatedKvLagSeconds, withSimulatedKvLag } from './simulated-kv-lag'
