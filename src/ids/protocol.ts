/**
 * What the Worker and the ID allocator shards exchange over RPC: the requests, and the answers
 * that tell the read path what a shard knows of an ID. Types only, so that the Worker's side
 * (allocator-client.ts, src/exports/) needs nothing of the Durable Object's module.
 */
import type { ExportMetadata } from '../storage'
import type { IdSpace } from './id-space'

/** What publishing hands the shard with the ID: the copy's metadata and its first chunk. */
export interface GraceCopyStart {
  metadata: ExportMetadata
  /** When the shard drops the copy, ms since the Unix epoch (at most `metadata.expiresAt`). */
  dropAt: number
  /** The first `COPY_CHUNK_BYTES` (grace-copies.ts) of the document (all of it, for a document up to 1 MiB). */
  head: Uint8Array
}

/** A request for a new ID in one shard. */
export interface AllocateRequest {
  space: IdSpace
  shard: number
  /** End of the export's lifetime, ms since the Unix epoch. */
  expiresAt: number
  /** How long after `expiresAt` the ID stays reserved. */
  quarantineSeconds: number
  /** The grace copy to keep with the ID, stored in the same transaction; none when grace is off. */
  copy?: GraceCopyStart | null
}

/** A new ID, or the shard is full until the earliest quarantine ends. */
export type Allocation = { ok: true; id: string } | { ok: false; retryAfterSeconds: number }

/** How much of a live ID's grace copy a lookup brings back: none, its metadata, or all of it. */
export type CopyPart = 'none' | 'metadata' | 'body'

/**
 * A live export's grace copy: its metadata, and its bytes when asked for (one chunk's bytes, or a
 * stream of chunks for a document over `COPY_CHUNK_BYTES`).
 */
export interface GraceCopy {
  metadata: ExportMetadata
  body: Uint8Array | ReadableStream<Uint8Array> | null
}

/** What the allocator knows of an ID; `copy` is there when asked for and still kept. */
export type IdState =
  | { state: 'never_issued' }
  | { state: 'live'; expiresAt: number; copy?: GraceCopy }
  | { state: 'quarantined'; expiresAt: number; reusableAt: number }
