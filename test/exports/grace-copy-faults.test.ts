/**
 * Faults of the grace copy made to happen: a shard that fails, hangs, or loses part of a copy
 * while a location KV has not reached reads from it; a copy that cannot be stored when
 * publishing, at its first chunk (in the allocating shard itself) or at the rest.
 */
import { evictAllDurableObjects, reset, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { IdAllocator } from '../../src/ids'
import { idSpace, shardName, shardOfId } from '../support/id-layout'
import { COPY_CHUNK_BYTES, COPY_WRITE_TIMEOUT_MS } from '../support/documented-limits'
import { syntheticExport } from '../support/fixtures'
import { allocatorWith, callWithEnv, logged, WAIT_FOR } from '../support/helpers'
import { errorOf, published, publishWith, SMALL_EXPORT } from '../support/publishing'

const LAGGED = { SIMULATED_KV_LAG_SECONDS: '600' }
/** A space of one ID: whether it is still reserved shows in the next publish. */
const TINY = { ID_SPACE_SIZE: '1' }
const LARGE_EXPORT = syntheticExport(2 * COPY_CHUNK_BYTES + 100)

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

/** The allocator object that owns `id` in a space of `size` IDs. */
function shardOf(id: string, size = 900_000) {
  const space = idSpace(size)
  return env.ID_ALLOCATOR.getByName(shardName(space, shardOfId(space, id)))
}

/** Runs SQL in the shard that owns `id`, straight on its database. */
function inShard(id: string, sql: string, size = 900_000, ...bindings: SqlStorageValue[]) {
  return runInDurableObject(shardOf(id, size), (_: IdAllocator, state) => {
    state.storage.sql.exec(sql, ...bindings)
  })
}

async function storedKeys(): Promise<string[]> {
  return (await env.EXPORTS.list({ prefix: 'export:' })).keys.map((key) => key.name)
}

describe('a shard that fails during a lagged read', () => {
  it.each(['GET', 'HEAD'])(
    'answers %s of a live ID with 503 unavailable and Retry-After, never 404',
    async (method) => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {})
      const { id } = await published()
      const down = allocatorWith({ lookup: () => Promise.reject(new Error('DO unreachable')) })
      const res = await callWithEnv({ ...LAGGED, ID_ALLOCATOR: down }, `/server-api?id=${id}`, {
        method,
      })
      expect(res.status).toBe(503)
      expect(res.headers.get('Retry-After')).toBe('1')
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
      if (method === 'GET') expect((await errorOf(res)).code).toBe('unavailable')
      expect(logged(log).join('\n')).toContain('DO unreachable')
    },
  )

  it('answers 503 unavailable within the lookup timeout when the shard does not answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { id } = await published()
    const hanging = allocatorWith({ lookup: () => new Promise(() => {}) })
    // The lookup never answers: an answer at all is the timeout at work. The test's own time
    // limit guards against a hang; how soon the answer comes is no test's business.
    const res = await callWithEnv({ ...LAGGED, ID_ALLOCATOR: hanging }, `/server-api?id=${id}`)
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('1')
    expect((await errorOf(res)).code).toBe('unavailable')
  })

  it('answers 503 unavailable before the status line when a one-chunk copy is damaged', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { id } = await published()
    await inShard(id, "UPDATE grace_chunks SET bytes = x'7b7d' WHERE id = ?", 900_000, Number(id))
    const res = await callWithEnv(LAGGED, `/server-api?id=${id}`)
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(logged(log).join('\n')).toContain(`export ${id} could not be read: ValueMismatchError`)
  })

  it('aborts the transfer, never a short 200, when a streamed copy loses a chunk mid-read', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { id } = await published({}, LARGE_EXPORT)
    await inShard(id, 'DELETE FROM grace_chunks WHERE id = ? AND seq = 1', 900_000, Number(id))
    const res = await callWithEnv(LAGGED, `/server-api?id=${id}`)
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
    await vi.waitFor(() => expect(log).toHaveBeenCalled(), WAIT_FOR)
    expect(logged(log).join('\n')).toContain(`export ${id} could not be read`)
  })
})

describe('a grace copy that cannot be stored', () => {
  it('fails the publish at its first chunk with 503, stores nothing and reserves no ID', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    // The shard's chunk table is gone: the insert of the first chunk fails in the allocation.
    await inShard('100000', 'DROP TABLE grace_chunks', 1)
    const res = await publishWith(TINY)
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('1')
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(await storedKeys()).toEqual([])
    // A shard creates its tables when it wakes.
    await evictAllDurableObjects()
    // The allocation was rolled back with the chunk: the only ID of the space is free.
    expect((await published(TINY)).id).toBe('100000')
  })

  it('fails the publish when the rest cannot be stored, releases the ID and drops the copy', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const failing = allocatorWith({ appendCopy: () => Promise.reject(new Error('SQLITE_FULL')) })
    const res = await publishWith({ ...TINY, ID_ALLOCATOR: failing }, LARGE_EXPORT)
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(await storedKeys()).toEqual([])
    const rows = await runInDurableObject(shardOf('100000', 1), (_: IdAllocator, state) =>
      state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM grace_chunks').one(),
    )
    expect(rows.n).toBe(0)
    expect((await published(TINY, SMALL_EXPORT)).id).toBe('100000')
  })

  it(
    'fails the publish when the rest is not stored in time, and releases the ID',
    async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {})
      const hanging = allocatorWith({ appendCopy: () => new Promise(() => {}) })
      const started = Date.now()
      const res = await publishWith({ ...TINY, ID_ALLOCATOR: hanging }, LARGE_EXPORT)
      expect(res.status).toBe(503)
      expect((await errorOf(res)).code).toBe('unavailable')
      expect(Date.now() - started).toBeGreaterThanOrEqual(COPY_WRITE_TIMEOUT_MS)
      expect(await storedKeys()).toEqual([])
      expect((await published(TINY)).id).toBe('100000')
    },
    COPY_WRITE_TIMEOUT_MS + 10_000,
  )

  it('refuses to complete a copy whose ID was released meanwhile', async () => {
    const { id, expiresAt } = await published({}, LARGE_EXPORT)
    const stub = shardOf(id)
    const expires = Date.parse(expiresAt)
    await stub.release(idSpace(900_000), id, expires)
    const rest = new Response(new Uint8Array(10)).body!
    const error = await stub.appendCopy(id, expires, rest).then(
      () => null,
      (reason: Error) => reason,
    )
    expect(error?.message).toMatch(/no unfinished copy/)
  })
})
