/**
 * The Durable Object that issues publication IDs, one instance per shard (see id-space.ts).
 * KV has no put-if-absent and is eventually consistent, so uniqueness lives here: a SQLite
 * table with the ID as primary key, written by a single-threaded object. A row exists from
 * issue until the ID's quarantine ends; then it is deleted and the ID is unknown again.
 *
 * An ID is drawn uniformly at random from the shard's free IDs, in time independent of how full
 * the shard is, through an in-memory `SlotIndex` rebuilt from the table when the object wakes
 * (one scan of at most 56,250 rows). Random probing would slow down as the shard fills; "the
 * next free ID after a random one" would favour IDs that follow long taken runs.
 *
 * Every method but `appendCopy` runs without an `await`, so each read-then-write is atomic.
 * Expired rows are deleted lazily, at the start of each allocation; a shard that stops
 * publishing keeps at most its own slots' worth of rows.
 *
 * The shard also keeps a copy of each export it issued an ID for during its grace period
 * (grace-copies.ts), so a location that KV has not reached yet still serves it. Copies are large,
 * so they are freed when due: lazily at each allocation, and by an alarm for a shard gone quiet.
 */
import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../config'
import { largeChunks, type ExportMetadata } from '../storage'
import { COPY_CHUNK_BYTES, GraceCopies } from './grace-copies'
import { idAt, locateId, randomBelow, shardSize, type IdSpace } from './id-space'
import type { ShardCount } from './id-space-status'
import type { AllocateRequest, Allocation, CopyPart, GraceCopy, IdState } from './protocol'
import { SlotIndex } from './slot-index'

/**
 * The alarm that frees copies fires this long after the first one is due, and frees all those
 * due by then: one alarm (a billed write) per batch rather than per publish. Reads stop at
 * `drop_at` whatever the alarm does.
 */
export const DROP_ALARM_BATCH_MS = 10_000

interface IssuedRow extends Record<string, SqlStorageValue> {
  expires_at: number
  reusable_at: number
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS issued_ids (
    id INTEGER PRIMARY KEY,
    expires_at INTEGER NOT NULL,
    reusable_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS issued_ids_by_reusable_at ON issued_ids (reusable_at);
`

/**
 * A shard of the ID space. Its public methods are its protocol (protocol.ts); the rest is
 * `#private`, which RPC cannot reach, where a TypeScript `private` method could still be called.
 */
export class IdAllocator extends DurableObject<Env> {
  readonly #sql: SqlStorage
  readonly #copies: GraceCopies
  /** The table's IDs as slots, built on first use; one object only ever serves one shard. */
  #index: SlotIndex | null = null
  /** When the pending alarm fires (ms since the Unix epoch), or null when none is set. */
  #alarmAt: number | null = null

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.#sql = ctx.storage.sql
    this.#sql.exec(SCHEMA)
    this.#copies = new GraceCopies(this.#sql)
    void ctx.blockConcurrencyWhile(async () => {
      this.#alarmAt = await ctx.storage.getAlarm()
    })
  }

  /**
   * Issues a random free ID of the shard, reserved until its quarantine ends, and starts its
   * grace copy in the same transaction: either both are stored or neither.
   */
  allocate(request: AllocateRequest): Allocation {
    const { space, shard, copy } = request
    const now = Date.now()
    const index = this.#slotIndex(space, shard)
    for (const row of this.#sql.exec<{ id: number }>(
      'DELETE FROM issued_ids WHERE reusable_at <= ? RETURNING id',
      now,
    )) {
      this.#forget(space, row.id)
    }
    this.#copies.dropDue(now)
    if (index.freeCount === 0) return { ok: false, retryAfterSeconds: this.#secondsUntilFree(now) }

    const slot = index.nthFree(randomBelow(index.freeCount))
    const id = idAt(space, shard, slot)
    this.ctx.storage.transactionSync(() => {
      this.#sql.exec(
        'INSERT INTO issued_ids (id, expires_at, reusable_at) VALUES (?, ?, ?)',
        id,
        request.expiresAt,
        request.expiresAt + request.quarantineSeconds * 1000,
      )
      if (copy) this.#copies.begin(id, request.expiresAt, copy)
    })
    index.take(slot)
    if (copy) this.#scheduleDrops(now)
    return { ok: true, id: String(id) }
  }

  /**
   * Stores the rest of the grace copy that `allocate` started, read from `rest` a chunk at a
   * time; rejects when the stream fails or ends early, or the ID was released meanwhile.
   */
  async appendCopy(id: string, expiresAt: number, rest: ReadableStream<Uint8Array>): Promise<void> {
    const n = Number(id)
    const chunks = largeChunks(rest, COPY_CHUNK_BYTES, {
      what: 'grace copy upload',
      reuseBuffer: true,
    })
    // Each chunk is in SQLite before the next is read, so one buffer serves them all.
    for await (const chunk of chunks) {
      for (let at = 0; at < chunk.byteLength; at += COPY_CHUNK_BYTES) {
        this.#copies.append(n, expiresAt, chunk.subarray(at, at + COPY_CHUNK_BYTES))
      }
    }
    this.#copies.assertComplete(n, expiresAt)
  }

  /**
   * Frees an ID whose export could not be stored, and its grace copy; `expiresAt` guards
   * against a newer holder.
   */
  release(space: IdSpace, id: string, expiresAt: number): boolean {
    const deleted = this.#sql
      .exec(
        'DELETE FROM issued_ids WHERE id = ? AND expires_at = ? RETURNING id',
        Number(id),
        expiresAt,
      )
      .toArray()
    this.#copies.drop(Number(id), expiresAt)
    if (deleted.length > 0) this.#forget(space, Number(id))
    return deleted.length > 0
  }

  /**
   * Whether an ID was issued and where it is in its life; for a live one, as much of its grace
   * copy as `part` asks for, while the shard keeps it.
   */
  lookup(id: string, part: CopyPart = 'none'): IdState {
    const row = this.#sql
      .exec<IssuedRow>('SELECT expires_at, reusable_at FROM issued_ids WHERE id = ?', Number(id))
      .toArray()[0]
    const now = Date.now()
    if (row === undefined || now >= row.reusable_at) return { state: 'never_issued' }
    if (now >= row.expires_at) {
      return { state: 'quarantined', expiresAt: row.expires_at, reusableAt: row.reusable_at }
    }
    const live = { state: 'live', expiresAt: row.expires_at } as const
    if (part === 'none') return live
    const found = this.#copies.find(Number(id), now)
    if (found === null) return live
    if (part === 'metadata') return { ...live, copy: { metadata: found.metadata, body: null } }
    const body =
      found.chunks === 1
        ? this.#copies.chunk(Number(id), 0)
        : this.#copies.stream(Number(id), found)
    return { ...live, copy: { metadata: found.metadata, body } }
  }

  /** Frees the copies whose grace has ended, and sets the next alarm if copies remain. */
  override alarm(): void {
    this.#alarmAt = null
    const now = Date.now()
    this.#copies.dropDue(now)
    this.#scheduleDrops(now)
  }

  /**
   * Sets the alarm for the next copy due, unless one is set early enough already: a setAlarm is
   * a billed write, and with one grace period for all, later copies are due later.
   */
  #scheduleDrops(now: number): void {
    const next = this.#copies.nextDropAt()
    if (next === null) return
    const due = Math.max(next, now) + DROP_ALARM_BATCH_MS
    if (this.#alarmAt !== null && this.#alarmAt <= due) return
    this.#alarmAt = due
    void this.ctx.storage.setAlarm(due)
  }

  /**
   * How many of the shard's IDs are live and in quarantine now. Rows whose quarantine has
   * ended are free, whether or not the next allocation has deleted them yet.
   */
  count(space: IdSpace, shard: number): ShardCount {
    const now = Date.now()
    const row = this.#sql
      .exec<{ live: number; quarantined: number; next: number | null }>(
        `SELECT COALESCE(SUM(expires_at > ?), 0) AS live,
                COALESCE(SUM(expires_at <= ? AND reusable_at > ?), 0) AS quarantined,
                MIN(CASE WHEN reusable_at > ? THEN reusable_at END) AS next
         FROM issued_ids`,
        now,
        now,
        now,
        now,
      )
      .one()
    return {
      size: shardSize(space, shard),
      live: row.live,
      quarantined: row.quarantined,
      nextFreeAt: row.next,
    }
  }

  #slotIndex(space: IdSpace, shard: number): SlotIndex {
    if (this.#index !== null) return this.#index
    const index = new SlotIndex(shardSize(space, shard))
    for (const row of this.#sql.exec<{ id: number }>('SELECT id FROM issued_ids')) {
      const at = locateId(space, row.id)
      if (at !== null) index.take(at.slot)
    }
    this.#index = index
    return index
  }

  #forget(space: IdSpace, id: number): void {
    const at = locateId(space, id)
    if (at !== null) this.#index?.release(at.slot)
  }

  #secondsUntilFree(now: number): number {
    const { next } = this.#sql
      .exec<{ next: number | null }>('SELECT MIN(reusable_at) AS next FROM issued_ids')
      .one()
    return Math.max(1, Math.ceil(((next ?? now) - now) / 1000))
  }
}
