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
 * Every method runs without an `await`, so each read-then-write is atomic. Expired rows are
 * deleted lazily, at the start of each allocation; a shard that stops publishing keeps at most
 * its own slots' worth of rows, so no alarm is needed.
 */
import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../config'
import { idAt, locateId, randomBelow, shardSize, type IdSpace } from './id-space'
import type { ShardCount } from './id-space-status'
import { SlotIndex } from './slot-index'

/** A request for a new ID in one shard. */
export interface AllocateRequest {
  space: IdSpace
  shard: number
  /** End of the export's lifetime, ms since the Unix epoch. */
  expiresAt: number
  /** How long after `expiresAt` the ID stays reserved. */
  quarantineSeconds: number
}

/** A new ID, or the shard is full until the earliest quarantine ends. */
export type Allocation = { ok: true; id: string } | { ok: false; retryAfterSeconds: number }

/** What the allocator knows of an ID. */
export type IdState =
  | { state: 'never_issued' }
  | { state: 'live'; expiresAt: number }
  | { state: 'quarantined'; expiresAt: number; reusableAt: number }

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

export class IdAllocator extends DurableObject<Env> {
  private readonly sql: SqlStorage
  /** The table's IDs as slots, built on first use; one object only ever serves one shard. */
  private index: SlotIndex | null = null

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.sql = ctx.storage.sql
    this.sql.exec(SCHEMA)
  }

  /** Issues a random free ID of the shard, reserved until its quarantine ends. */
  allocate(request: AllocateRequest): Allocation {
    const { space, shard } = request
    const now = Date.now()
    const index = this.slotIndex(space, shard)
    for (const row of this.sql.exec<{ id: number }>(
      'DELETE FROM issued_ids WHERE reusable_at <= ? RETURNING id',
      now,
    )) {
      this.forget(space, row.id)
    }
    if (index.freeCount === 0) return { ok: false, retryAfterSeconds: this.secondsUntilFree(now) }

    const slot = index.nthFree(randomBelow(index.freeCount))
    const id = idAt(space, shard, slot)
    this.sql.exec(
      'INSERT INTO issued_ids (id, expires_at, reusable_at) VALUES (?, ?, ?)',
      id,
      request.expiresAt,
      request.expiresAt + request.quarantineSeconds * 1000,
    )
    index.take(slot)
    return { ok: true, id: String(id) }
  }

  /** Frees an ID whose export could not be stored; `expiresAt` guards against a newer holder. */
  release(space: IdSpace, id: string, expiresAt: number): boolean {
    const deleted = this.sql
      .exec(
        'DELETE FROM issued_ids WHERE id = ? AND expires_at = ? RETURNING id',
        Number(id),
        expiresAt,
      )
      .toArray()
    if (deleted.length > 0) this.forget(space, Number(id))
    return deleted.length > 0
  }

  /** Whether an ID was issued and where it is in its life. */
  lookup(id: string): IdState {
    const row = this.sql
      .exec<IssuedRow>('SELECT expires_at, reusable_at FROM issued_ids WHERE id = ?', Number(id))
      .toArray()[0]
    const now = Date.now()
    if (row === undefined || now >= row.reusable_at) return { state: 'never_issued' }
    if (now < row.expires_at) return { state: 'live', expiresAt: row.expires_at }
    return { state: 'quarantined', expiresAt: row.expires_at, reusableAt: row.reusable_at }
  }

  /**
   * How many of the shard's IDs are live and in quarantine now. Rows whose quarantine has
   * ended are free, whether or not the next allocation has deleted them yet.
   */
  count(space: IdSpace, shard: number): ShardCount {
    const now = Date.now()
    const row = this.sql
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

  private slotIndex(space: IdSpace, shard: number): SlotIndex {
    if (this.index !== null) return this.index
    const index = new SlotIndex(shardSize(space, shard))
    for (const row of this.sql.exec<{ id: number }>('SELECT id FROM issued_ids')) {
      const at = locateId(space, row.id)
      if (at !== null) index.take(at.slot)
    }
    this.index = index
    return index
  }

  private forget(space: IdSpace, id: number): void {
    const at = locateId(space, id)
    if (at !== null) this.index?.release(at.slot)
  }

  private secondsUntilFree(now: number): number {
    const { next } = this.sql
      .exec<{ next: number | null }>('SELECT MIN(reusable_at) AS next FROM issued_ids')
      .one()
    return Math.max(1, Math.ceil(((next ?? now) - now) / 1000))
  }
}
