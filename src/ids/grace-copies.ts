/**
 * The allocator shard's strongly consistent copy of each export it issued an ID for, kept from
 * publication until `drop_at` (the grace period, `PUBLISH_GRACE_SECONDS`, never beyond the
 * lifetime). KV is eventually consistent: a location that has not seen a new export yet asks
 * the shard anyway (to tell 404 from 410), and now gets the export itself from this copy.
 *
 * Durable Object SQLite values are limited to 2 MB, so a document is kept in chunks of
 * `COPY_CHUNK_BYTES`: the first one is written with the ID itself (allocate), the rest, for
 * documents over 1 MiB, arrive in a stream (append). A copy is served only once `complete`.
 *
 * Synchronous SQL only: the allocator calls these methods without an `await` in between, so
 * each change is atomic. Trade-off accepted: a copy read while it is dropped (a large one
 * streamed over the grace deadline) would end early, so copies being read are kept until the
 * read ends, beyond `drop_at` if need be (never beyond the export's lifetime of minutes).
 */
import { isExportMetadata, type ExportMetadata } from '../storage'
import type { GraceCopyStart } from './protocol'

/** Bytes per stored chunk: under Durable Object SQLite's 2 MB limit on one value. */
export const COPY_CHUNK_BYTES = 1024 * 1024

/** A complete copy found for a read: its metadata, and how many chunks hold its bytes. */
export interface FoundCopy {
  metadata: ExportMetadata
  chunks: number
}

/** The copy's two tables, as docs/storage.md describes them; created when the shard wakes. */
export const GRACE_COPIES_SCHEMA = `
  CREATE TABLE IF NOT EXISTS grace_copies (
    id INTEGER PRIMARY KEY,
    expires_at INTEGER NOT NULL,
    drop_at INTEGER NOT NULL,
    metadata TEXT NOT NULL,
    chunks INTEGER NOT NULL,
    stored_bytes INTEGER NOT NULL,
    complete INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS grace_copies_by_drop_at ON grace_copies (drop_at);
  CREATE TABLE IF NOT EXISTS grace_chunks (
    id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (id, seq)
  );
`

interface CopyRow extends Record<string, SqlStorageValue> {
  metadata: string
  chunks: number
  stored_bytes: number
  complete: number
}

/** The grace copies of one shard, in its SQLite database. */
export class GraceCopies {
  /** IDs whose copy is being streamed to a reader, and how many reads of each. */
  private readonly reading = new Map<number, number>()

  constructor(private readonly sql: SqlStorage) {
    sql.exec(GRACE_COPIES_SCHEMA)
  }

  /** Starts the copy of the export issued as `id` with its first chunk; complete if that is all. */
  begin(id: number, expiresAt: number, copy: GraceCopyStart): void {
    const { metadata, dropAt, head } = copy
    if (head.byteLength > COPY_CHUNK_BYTES || head.byteLength > metadata.size) {
      throw new RangeError(`a first chunk of ${head.byteLength} bytes does not fit this copy`)
    }
    this.sql.exec(
      `INSERT INTO grace_copies (id, expires_at, drop_at, metadata, chunks, stored_bytes, complete)
       VALUES (?, ?, ?, ?, 1, ?, ?)`,
      id,
      expiresAt,
      Math.min(dropAt, metadata.expiresAt),
      JSON.stringify(metadata),
      head.byteLength,
      head.byteLength === metadata.size ? 1 : 0,
    )
    this.sql.exec('INSERT INTO grace_chunks (id, seq, bytes) VALUES (?, 0, ?)', id, head)
  }

  /**
   * Adds the next chunk to the unfinished copy of the `id` issued with `expiresAt`; throws when
   * there is none (released meanwhile) or the chunk would overrun the document.
   */
  append(id: number, expiresAt: number, chunk: Uint8Array): void {
    const row = this.unfinished(id, expiresAt)
    const size = this.metadataOf(row).size
    if (chunk.byteLength > COPY_CHUNK_BYTES || row.stored_bytes + chunk.byteLength > size) {
      throw new RangeError(`the copy of ${id} would outgrow its ${size} bytes`)
    }
    this.sql.exec(
      'INSERT INTO grace_chunks (id, seq, bytes) VALUES (?, ?, ?)',
      id,
      row.chunks,
      chunk,
    )
    this.sql.exec(
      `UPDATE grace_copies SET chunks = chunks + 1, stored_bytes = stored_bytes + ?,
         complete = (stored_bytes + ? = ?) WHERE id = ?`,
      chunk.byteLength,
      chunk.byteLength,
      size,
      id,
    )
  }

  /** Throws unless the copy of `id` issued with `expiresAt` holds all of its bytes. */
  assertComplete(id: number, expiresAt: number): void {
    const row = this.copyRow(id, expiresAt)
    if (row === undefined) throw new Error(`the copy of ${id} is gone`)
    if (row.complete !== 1) {
      throw new Error(
        `the copy of ${id} holds ${row.stored_bytes} of ${this.metadataOf(row).size} bytes`,
      )
    }
  }

  /** The complete copy of `id` if it is still within its grace period at `now`. */
  find(id: number, now: number): FoundCopy | null {
    const row = this.sql
      .exec<CopyRow>(
        'SELECT metadata, chunks, stored_bytes, complete FROM grace_copies WHERE id = ? AND drop_at > ? AND complete = 1',
        id,
        now,
      )
      .toArray()[0]
    return row === undefined ? null : { metadata: this.metadataOf(row), chunks: row.chunks }
  }

  /** Chunk `seq` of the copy of `id`; throws if it is gone. */
  chunk(id: number, seq: number): Uint8Array {
    const row = this.sql
      .exec<{ bytes: ArrayBuffer }>(
        'SELECT bytes FROM grace_chunks WHERE id = ? AND seq = ?',
        id,
        seq,
      )
      .toArray()[0]
    if (row === undefined) throw new Error(`chunk ${seq} of the copy of ${id} is gone`)
    return new Uint8Array(row.bytes)
  }

  /**
   * The bytes of a found copy as a stream that reads one chunk from SQLite per pull, so a large
   * copy is never held whole; the copy is kept until the stream ends or is cancelled.
   */
  stream(id: number, found: FoundCopy): ReadableStream<Uint8Array> {
    let seq = 0
    this.reading.set(id, (this.reading.get(id) ?? 0) + 1)
    let done = false
    const finish = (): void => {
      if (done) return
      done = true
      const left = (this.reading.get(id) ?? 1) - 1
      if (left > 0) this.reading.set(id, left)
      else this.reading.delete(id)
    }
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          try {
            controller.enqueue(this.chunk(id, seq++))
          } catch (error) {
            finish()
            controller.error(error)
            return
          }
          if (seq === found.chunks) {
            finish()
            controller.close()
          }
        },
        cancel: finish,
      },
      { highWaterMark: 0 },
    )
  }

  /** Drops the copy of `id` issued with `expiresAt`, if there is one. */
  drop(id: number, expiresAt: number): void {
    const gone = this.sql
      .exec('DELETE FROM grace_copies WHERE id = ? AND expires_at = ? RETURNING id', id, expiresAt)
      .toArray()
    if (gone.length > 0) this.sql.exec('DELETE FROM grace_chunks WHERE id = ?', id)
  }

  /** Drops every copy whose grace has ended by `now`, except those being read within the lifetime. */
  dropDue(now: number): void {
    const due = this.sql
      .exec<{ id: number; expires_at: number }>(
        'SELECT id, expires_at FROM grace_copies WHERE drop_at <= ?',
        now,
      )
      .toArray()
    for (const row of due) {
      if (!this.reading.has(row.id) || now >= row.expires_at) this.drop(row.id, row.expires_at)
    }
  }

  /** When the next copy is due to be dropped (ms since the Unix epoch), or null if none is kept. */
  nextDropAt(): number | null {
    return this.sql
      .exec<{ next: number | null }>('SELECT MIN(drop_at) AS next FROM grace_copies')
      .one().next
  }

  /** The copy of the `id` issued with `expiresAt`, finished or not. */
  private copyRow(id: number, expiresAt: number): CopyRow | undefined {
    return this.sql
      .exec<CopyRow>(
        'SELECT metadata, chunks, stored_bytes, complete FROM grace_copies WHERE id = ? AND expires_at = ?',
        id,
        expiresAt,
      )
      .toArray()[0]
  }

  private unfinished(id: number, expiresAt: number): CopyRow {
    const row = this.copyRow(id, expiresAt)
    if (row === undefined || row.complete === 1) {
      throw new Error(`there is no unfinished copy of ${id} to append to`)
    }
    return row
  }

  private metadataOf(row: CopyRow): ExportMetadata {
    const metadata: unknown = JSON.parse(row.metadata)
    if (!isExportMetadata(metadata)) throw new Error('a grace copy has no valid metadata')
    return metadata
  }
}
