/**
 * The Worker's side of the ID allocator: which shard to ask and what to do with its answers.
 * Publishing tries the shards in a random order, so load spreads over all of them; a shard found
 * full is tried after the others until it may free an ID (full-shards.ts), so it costs one more
 * call once per isolate, not every publish. A lookup goes straight to the shard that owns the ID.
 *
 * The shard that issues an ID also keeps the export's grace copy (grace-copies.ts): its first
 * chunk travels with the allocation, the rest (documents over 1 MiB) as a stream, so no call
 * carries a clone of the whole body. A read that KV misses gets the copy from the same lookup
 * that tells 404 from 410 (src/exports/grace-copy-read.ts decides what the reader is told).
 */
import { exportTtlSeconds, idQuarantineSeconds, idSpaceSize, type Env } from '../config'
import { ServiceFailure } from '../http'
import { logIncident } from '../observability'
import { withTimeout } from '../timeout'
import { FullShards } from './full-shards'
import { COPY_CHUNK_BYTES } from './grace-copies'
import { idSpace, locateId, randomBelow, shardName, type IdSpace } from './id-space'
import { summarizeIdSpace, type IdSpaceStatus } from './id-space-status'
import type { Allocation, CopyPart, GraceCopyStart, IdState } from './protocol'

/**
 * A read path lookup that has not answered by then counts as failed: `503 unavailable`, since
 * the ID may be live and its copy only there.
 */
export const LOOKUP_TIMEOUT_MS = 2000
/**
 * Storing the rest of a grace copy that has not finished by then fails the publish (like a KV
 * write, a 25 MiB copy takes seconds). Releasing the ID is then safe: the shard appends only to
 * the copy of the ID it issued, which the release deletes.
 */
export const COPY_WRITE_TIMEOUT_MS = 10_000
/**
 * An allocation that has not answered by then fails the publish with 503 rather than hang it.
 * If it did succeed late, its ID stays reserved, unused, until its quarantine ends: never issued
 * twice.
 */
export const ALLOCATE_TIMEOUT_MS = 5000
/** A shard that has not counted its IDs by then fails the status request with 503. */
export const COUNT_TIMEOUT_MS = 5000

/** The shards this isolate found full: an order for the next publishes, kept across requests. */
const fullShards = new FullShards()

/**
 * Reserves a new ID for an export that expires at `expiresAt` (ms since the Unix epoch); the
 * shard that issues it stores `copy` (the grace copy's start) in the same transaction.
 */
export async function allocateId(
  env: Env,
  expiresAt: number,
  copy: GraceCopyStart | null = null,
): Promise<string> {
  const space = spaceOf(env)
  const quarantineSeconds = idQuarantineSeconds(env)
  let retryAfterSeconds = Infinity
  const nameOf = (shard: number) => shardName(space, shard)
  for (const shard of fullShards.order(shuffledShards(space), nameOf, Date.now())) {
    let allocation
    try {
      const allocator = env.ID_ALLOCATOR.getByName(nameOf(shard))
      allocation = await withTimeout<Allocation>(
        allocator.allocate({ space, shard, expiresAt, quarantineSeconds, copy }),
        ALLOCATE_TIMEOUT_MS,
        'ID allocation',
      )
    } catch (cause) {
      throw new ServiceFailure({ reason: 'allocator_failed', cause })
    }
    if (allocation.ok) {
      fullShards.free(nameOf(shard))
      return allocation.id
    }
    fullShards.full(nameOf(shard), Date.now(), allocation.retryAfterSeconds)
    retryAfterSeconds = Math.min(retryAfterSeconds, allocation.retryAfterSeconds)
  }
  throw new ServiceFailure({ reason: 'id_space_full', retryAfterSeconds })
}

/**
 * The start of a grace copy of `document`: its first chunk, copied, since a view would carry its
 * whole buffer over RPC.
 */
export function graceCopyStart(
  document: Uint8Array,
  copy: Omit<GraceCopyStart, 'head'>,
): GraceCopyStart {
  return { ...copy, head: document.slice(0, COPY_CHUNK_BYTES) }
}

/**
 * Sends the rest of `document` after its first chunk to the shard that issued `id`, as a stream
 * read as the shard stores it. Does nothing for a one-chunk document.
 *
 * The chunks are views of the document, not copies: a plain stream hands them over as they are
 * and RPC copies each into its pipe as the shard reads it, into one reused buffer. A 25 MiB
 * publish peaks 0-8 MiB higher than without the copy (workerd's RSS, shard included). A byte
 * stream would take over each chunk's buffer, so it would need copies of them, and those, like
 * a fresh buffer per chunk on the shard's side, are garbage that piled up to the body's size.
 */
export async function appendGraceCopy(
  env: Env,
  id: string,
  expiresAt: number,
  document: Uint8Array,
): Promise<void> {
  if (document.byteLength <= COPY_CHUNK_BYTES) return
  let at = COPY_CHUNK_BYTES
  const rest = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const end = Math.min(at + COPY_CHUNK_BYTES, document.byteLength)
        controller.enqueue(document.subarray(at, end))
        at = end
        if (at === document.byteLength) controller.close()
      },
    },
    { highWaterMark: 0 },
  )
  await withTimeout(
    shardOf(env, id).appendCopy(id, expiresAt, rest),
    COPY_WRITE_TIMEOUT_MS,
    'grace copy write',
  )
}

/** Gives back an ID whose export was not stored; returns false (and logs) when that fails. */
export async function releaseId(env: Env, id: string, expiresAt: number): Promise<boolean> {
  const space = spaceOf(env)
  if (locateId(space, Number(id)) === null) return false
  try {
    const released = await shardOf(env, id).release(space, id, expiresAt)
    if (released) fullShards.free(shardNameOf(space, id))
    return released
  } catch (error) {
    // The ID then stays reserved until its quarantine ends: unused, but never handed out twice.
    logIncident('id_release_failed', `releasing ID ${id} failed`, error, { id })
    return false
  }
}

/**
 * What the allocator knows of an ID, with as much of a live one's grace copy as `part` asks
 * for; an ID outside the space was never issued.
 */
export async function lookupId(env: Env, id: string, part: CopyPart = 'none'): Promise<IdState> {
  if (locateId(spaceOf(env), Number(id)) === null) return { state: 'never_issued' }
  return shardOf(env, id).lookup(id, part)
}

/** Counts every shard's IDs, all shards at once; any shard failing fails the whole count. */
export async function idSpaceStatus(env: Env): Promise<IdSpaceStatus> {
  const space = spaceOf(env)
  const settings = {
    lifetimeSeconds: exportTtlSeconds(env),
    quarantineSeconds: idQuarantineSeconds(env),
  }
  let counts
  try {
    counts = await Promise.all(
      Array.from({ length: space.shards }, (_, shard) =>
        withTimeout(
          env.ID_ALLOCATOR.getByName(shardName(space, shard)).count(space, shard),
          COUNT_TIMEOUT_MS,
          'ID count',
        ),
      ),
    )
  } catch (cause) {
    throw new ServiceFailure({ reason: 'allocator_failed', cause })
  }
  return summarizeIdSpace(counts, { ...settings, now: Date.now() })
}

/** The allocator object of the shard that owns `id` (which must be in the space). */
function shardOf(env: Env, id: string) {
  return env.ID_ALLOCATOR.getByName(shardNameOf(spaceOf(env), id))
}

/** The name of the shard that owns `id` (which must be in the space). */
function shardNameOf(space: IdSpace, id: string): string {
  const at = locateId(space, Number(id))
  if (at === null) throw new RangeError(`ID ${id} is outside the ID space`)
  return shardName(space, at.shard)
}

function spaceOf(env: Env): IdSpace {
  return idSpace(idSpaceSize(env))
}

/** All shard numbers in a uniformly random order (Fisher-Yates). */
function shuffledShards(space: IdSpace): number[] {
  const order = Array.from({ length: space.shards }, (_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1)
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
  return order
}
