/**
 * The metadata record stored beside each export: in KV by publishing (export-store.ts) and in
 * the allocator's grace copies (src/ids/grace-copies.ts): both stores share the one schema.
 */

/** Metadata stored beside each export (KV allows 1024 bytes of it). */
export interface ExportMetadata {
  /** Schema version of this record. */
  v: 1
  /** Publication time, milliseconds since the Unix epoch. */
  publishedAt: number
  /** End of the lifetime, milliseconds since the Unix epoch; retrievable while now < expiresAt. */
  expiresAt: number
  /** Bytes of the stored document. */
  size: number
  /** Placeholders in the document. */
  placeholders: number
  /** Bytes those placeholders occupy as written (an escaped one is longer than 16). */
  placeholderBytes: number
}

/** Whether `value` is an `ExportMetadata` record of this version. */
export function isExportMetadata(value: unknown): value is ExportMetadata {
  if (typeof value !== 'object' || value === null) return false
  const m = value as Record<string, unknown>
  return (
    m.v === 1 &&
    typeof m.publishedAt === 'number' &&
    typeof m.expiresAt === 'number' &&
    typeof m.size === 'number' &&
    typeof m.placeholders === 'number' &&
    typeof m.placeholderBytes === 'number'
  )
}
