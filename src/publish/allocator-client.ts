/**
 * The Worker's side of the ID allocator: which shard to ask and what to do with its answers.
 * Publishing tries the shards in a random order, so load spreads over all of them and a full
 * shard only costs one more call; a lookup goes straight to the shard that owns the ID.
 */
import { exportTtlSeconds, idQuarantineSeconds, idSpaceSize, type Env } from '../config'
import { ServiceFailure, type Failure } from '../http/errors'
import { logIncident } from '../observability'
import { withTimeout } from '../timeout'
import type { Allocation, IdState } from './id-allocator'
import { idSpace, locateId, randomBelow, shardName, type IdSpace } from './id-space'
import { summarizeIdSpace, type IdSpaceStatus } from './id-space-status'

/** Retry-After of a live ID that this location's KV does not show yet. */
export const NOT_VISIBLE_RETRY_AFTER_SECONDS = 5
/** A read path lookup that has not answered by then counts as failed (the miss stays a 404). */
export const LOOKUP_TIMEOUT_MS = 2000
/**
 * An allocation that has not answered by then fails the publish with 503 rather than hang it.
 * If it did succeed late, its ID stays reserved, unused, until its quarantine ends: never issued
 * twice.
 */
export const ALLOCATE_TIMEOUT_MS = 5000
/** A shard that has not counted its IDs by then fails the status request with 503. */
export const COUNT_TIMEOUT_MS = 5000

/** Reserves a new ID for an export that expires at `expiresAt` (ms since the Unix epoch). */
export async function allocateId(env: Env, expiresAt: number): Promise<string> {
  const space = spaceOf(env)
  const quarantineSeconds = idQuarantineSeconds(env)
  let retryAfterSeconds = Infinity
  for (const shard of shuffledShards(space)) {
    let allocation
    try {
      const allocator = env.ID_ALLOCATOR.getByName(shardName(space, shard))
      allocation = await withTimeout<Allocation>(
        allocator.allocate({ space, shard, expiresAt, quarantineSeconds }),
        ALLOCATE_TIMEOUT_MS,
        'ID allocation',
      )
    } catch (cause) {
      throw new ServiceFailure({ reason: 'allocator_failed', cause })
    }
    if (allocation.ok) return allocation.id
    retryAfterSeconds = Math.min(retryAfterSeconds, allocation.retryAfterSeconds)
  }
  throw new ServiceFailure({ reason: 'id_space_full', retryAfterSeconds })
}

/** Gives back an ID whose export was not stored; returns false (and logs) when that fails. */
export async function releaseId(env: Env, id: string, expiresAt: number): Promise<boolean> {
  const space = spaceOf(env)
  const at = locateId(space, Number(id))
  if (at === null) return false
  try {
    return await env.ID_ALLOCATOR.getByName(shardName(space, at.shard)).release(
      space,
      id,
      expiresAt,
    )
  } catch (error) {
    // The ID then stays reserved until its quarantine ends: unused, but never handed out twice.
    logIncident('id_release_failed', `releasing ID ${id} failed`, error, { id })
    return false
  }
}

/** What the allocator knows of an ID; an ID outside the space was never issued. */
export async function lookupId(env: Env, id: string): Promise<IdState> {
  const space = spaceOf(env)
  const at = locateId(space, Number(id))
  if (at === null) return { state: 'never_issued' }
  return env.ID_ALLOCATOR.getByName(shardName(space, at.shard)).lookup(id)
}

/**
 * Why KV has no export for an ID: never issued (404), expired and in quarantine (410), or live
 * but not yet visible in this location's KV (503), which caches misses and takes up to about a
 * minute to propagate a write. When the allocator cannot answer, or not within
 * `LOOKUP_TIMEOUT_MS`, the miss stays a 404 (logged): the read path keeps working without it, at
 * the price of a wrong 404 for a just-published ID.
 */
export async function whyMissing(env: Env, id: string): Promise<Failure> {
  let known: IdState
  try {
    known = await withTimeout(lookupId(env, id), LOOKUP_TIMEOUT_MS, 'ID lookup')
  } catch (error) {
    logIncident('id_lookup_failed', `looking up ID ${id} failed; answering 404`, error, { id })
    return { reason: 'unknown_id', id }
  }
  switch (known.state) {
    case 'never_issued':
      return { reason: 'unknown_id', id }
    case 'quarantined':
      return { reason: 'expired', id }
    case 'live':
      return { reason: 'not_yet_visible', id, retryAfterSeconds: NOT_VISIBLE_RETRY_AFTER_SECONDS }
  }
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
