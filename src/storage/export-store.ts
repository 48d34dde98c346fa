/**
 * The storage contract of a published export (docs/storage.md). This module alone knows the KV
 * key, the value and the metadata; publishing writes through `putExport`, the read path reads
 * through `openExport`.
 *
 * KV is eventually consistent and its expiry is only garbage collection (at least 60 s, and
 * edge caches may serve a value a little longer), so the rule "retrievable for exactly the
 * lifetime" is enforced here from the publication time stored in the metadata.
 */
import { isExportMetadata, type ExportMetadata } from './export-metadata'
import { withTimeout } from '../timeout'

/** Stable across versions: the KV key of export NNNNNN is `export:NNNNNN`. */
export const EXPORT_KEY_PREFIX = 'export:'
/** KV rejects an `expirationTtl` below this. */
export const KV_MIN_EXPIRATION_TTL_SECONDS = 60
/** A KV read that has not answered by then is treated as a storage failure. */
export const KV_READ_TIMEOUT_MS = 3000
/** A KV write that has not answered by then fails the publish (a 25 MiB write takes seconds). */
export const KV_WRITE_TIMEOUT_MS = 10_000

/** The placeholders of a document, as publishing counted them while validating it. */
export type PlaceholderCount = Pick<ExportMetadata, 'placeholders' | 'placeholderBytes'>

/** An export found in KV, its body not yet read. */
export interface StoredExport {
  body: ReadableStream<Uint8Array>
  metadata: ExportMetadata
}

/** The KV key of a publication ID. */
export function exportKey(id: string): string {
  return EXPORT_KEY_PREFIX + id
}

/**
 * The metadata of a validated `document` published at `publishedAt` for `ttlSeconds`; `counted`
 * is what validation found in it.
 */
export function exportMetadata(
  document: Uint8Array,
  counted: PlaceholderCount,
  publishedAt: number,
  ttlSeconds: number,
): ExportMetadata {
  return {
    v: 1,
    publishedAt,
    expiresAt: publishedAt + ttlSeconds * 1000,
    size: document.byteLength,
    placeholders: counted.placeholders,
    placeholderBytes: counted.placeholderBytes,
  }
}

/** Stores a document under `id` with its metadata, until KV's expiry after `expiresAt`. */
export async function putExport(
  kv: KVNamespace,
  id: string,
  document: Uint8Array,
  metadata: ExportMetadata,
): Promise<void> {
  const ttlSeconds = Math.ceil((metadata.expiresAt - metadata.publishedAt) / 1000)
  const write = kv.put(exportKey(id), document, {
    expirationTtl: Math.max(ttlSeconds, KV_MIN_EXPIRATION_TTL_SECONDS),
    metadata,
  })
  await withTimeout(write, KV_WRITE_TIMEOUT_MS, 'KV write')
}

/**
 * Opens the stored export of `id` as a stream, or returns null when KV has none.
 * Throws when KV fails or does not answer within `KV_READ_TIMEOUT_MS`.
 */
export async function openExport(kv: KVNamespace, id: string): Promise<StoredExport | null> {
  const read = kv.getWithMetadata<ExportMetadata>(exportKey(id), { type: 'stream' })
  const { value, metadata } = await withTimeout(read, KV_READ_TIMEOUT_MS, 'KV read')
  if (value === null) return null
  if (!isExportMetadata(metadata)) {
    void value.cancel()
    throw new Error(`export ${id} has no valid metadata`)
  }
  return { body: value, metadata }
}

/** Bytes of the document once every placeholder is replaced by a tag of `tagLength` ASCII bytes. */
export function substitutedLength(metadata: ExportMetadata, tagLength: number): number {
  return metadata.size - metadata.placeholderBytes + metadata.placeholders * tagLength
}
