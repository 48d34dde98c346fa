import { reset, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { exportKey } from '../support/storage-layout'
import { lookupId, type IdAllocator } from '../../src/ids'
import { SLOT_BUCKET_SIZE } from '../support/documented-limits'
import { callWithEnv } from '../support/helpers'
import { idAt, idSpace, shardName, shardSize, type IdSpace } from '../support/id-layout'
import { errorOf, published, publishWith, type Published } from '../support/publishing'

const T0 = Date.UTC(2030, 0, 1)
const LIFETIME_MS = 600_000
const QUARANTINE_SECONDS = 3600

function at(seconds: number): void {
  vi.setSystemTime(T0 + seconds * 1000)
}

/** The allocator object of one shard, and a request for an ID there expiring in 10 minutes. */
function shard(space: IdSpace, k: number) {
  const stub = env.ID_ALLOCATOR.getByName(shardName(space, k))
  const request = () => ({
    space,
    shard: k,
    expiresAt: Date.now() + LIFETIME_MS,
    quarantineSeconds: QUARANTINE_SECONDS,
  })
  return { stub, request }
}

/** Marks the given slots of a shard as issued, straight in its SQL table. */
async function takeSlots(space: IdSpace, k: number, slots: number[]): Promise<void> {
  const { stub } = shard(space, k)
  await runInDurableObject(stub, (_instance: IdAllocator, state) => {
    const expiresAt = Date.now() + LIFETIME_MS
    for (const slot of slots) {
      state.storage.sql.exec(
        'INSERT INTO issued_ids (id, expires_at, reusable_at) VALUES (?, ?, ?)',
        idAt(space, k, slot),
        expiresAt,
        expiresAt + QUARANTINE_SECONDS * 1000,
      )
    }
  })
}

/** Every ID a shard hands out until it answers that it is full. */
async function allIds(space: IdSpace, k: number): Promise<string[]> {
  const { stub, request } = shard(space, k)
  const ids: string[] = []
  for (;;) {
    const allocation = await stub.allocate(request())
    if (!allocation.ok) return ids
    ids.push(allocation.id)
  }
}

async function publishAll(count: number, vars: Partial<Cloudflare.Env>): Promise<Response[]> {
  return Promise.all(Array.from({ length: count }, () => publishWith(vars)))
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

describe('publication IDs', () => {
  it('are unique, six digits without a leading zero, under 200 concurrent publishes', async () => {
    const responses = await publishAll(200, {})
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(201))
    const ids = await Promise.all(responses.map(async (r) => (await r.json<Published>()).id))
    expect(new Set(ids).size).toBe(200)
    for (const id of ids) expect(id).toMatch(/^[1-9][0-9]{5}$/)
    const stored = await env.EXPORTS.list({ prefix: 'export:' })
    expect(stored.keys.map((k) => k.name).sort()).toEqual(ids.map(exportKey).sort())
  })

  it('are spread over the whole space, not handed out in sequence', async () => {
    const ids: number[] = []
    for (let i = 0; i < 50; i++) ids.push(Number((await published()).id))
    const steps = ids.slice(1).map((id, i) => id - ids[i]!)
    expect(steps.filter((step) => Math.abs(step) === 1).length).toBeLessThan(3)
    expect(Math.min(...ids)).toBeLessThan(400_000)
    expect(Math.max(...ids)).toBeGreaterThan(700_000)
  })

  it('run out with 503 capacity and Retry-After when the space is full, never repeating', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const tiny = { ID_SPACE_SIZE: '10' }
    const responses = await publishAll(13, tiny)
    const created = responses.filter((r) => r.status === 201)
    const refused = responses.filter((r) => r.status === 503)
    expect(created.length).toBe(10)
    expect(refused.length).toBe(3)
    const ids = await Promise.all(created.map(async (r) => (await r.json<Published>()).id))
    expect(ids.sort()).toEqual(Array.from({ length: 10 }, (_, i) => String(100_000 + i)))
    for (const res of refused) {
      expect(res.headers.get('Retry-After')).toBe(String(600 + QUARANTINE_SECONDS))
      expect(await errorOf(res)).toMatchObject({
        code: 'capacity',
        retryAfterSeconds: 600 + QUARANTINE_SECONDS,
      })
    }
  })

  it('are not issued again until the quarantine after expiry ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const one = { ID_SPACE_SIZE: '1' }
    at(0)
    expect((await published(one)).id).toBe('100000')
    at(600)
    const during = await publishWith(one)
    expect(during.status).toBe(503)
    expect(during.headers.get('Retry-After')).toBe(String(QUARANTINE_SECONDS))
    at(600 + QUARANTINE_SECONDS - 1)
    expect((await publishWith(one)).headers.get('Retry-After')).toBe('1')
    at(600 + QUARANTINE_SECONDS)
    await env.EXPORTS.delete(exportKey('100000'))
    expect((await callWithEnv(one, '/server-api?id=100000')).status).toBe(404)
    const again = await published(one)
    expect(again.id).toBe('100000')
    expect(again.expiresAt).toBe(new Date(T0 + (1200 + QUARANTINE_SECONDS) * 1000).toISOString())
  })

  it('are looked up in the shard that owns them', async () => {
    const space = idSpace(1600)
    const { id } = await published({ ID_SPACE_SIZE: '1600' })
    const owner = (Number(id) - 100_000) % 16
    expect(await shard(space, owner).stub.lookup(id)).toMatchObject({ state: 'live' })
    expect(await shard(space, (owner + 1) % 16).stub.lookup(id)).toEqual({ state: 'never_issued' })
  })

  it('are looked up, across the full space, in the shard the docs give them', async () => {
    const space = idSpace()
    const issued = fc
      .nat({ max: space.shards - 1 })
      .chain((k) => fc.tuple(fc.constant(k), fc.nat({ max: shardSize(space, k) - 1 })))
    await fc.assert(
      fc.asyncProperty(issued, async ([k, slot]) => {
        const id = idAt(space, k, slot)
        await runInDurableObject(shard(space, k).stub, (_instance: IdAllocator, state) => {
          const expiresAt = Date.now() + LIFETIME_MS
          state.storage.sql.exec(
            'INSERT OR REPLACE INTO issued_ids (id, expires_at, reusable_at) VALUES (?, ?, ?)',
            id,
            expiresAt,
            expiresAt + QUARANTINE_SECONDS * 1000,
          )
        })
        expect(await lookupId(env, String(id))).toMatchObject({ state: 'live' })
      }),
      { numRuns: 100 },
    )
  })
})

describe('IdAllocator', () => {
  const space = idSpace(1600) // 16 shards of 100 IDs

  it('hands out exactly the free IDs of a nearly full shard, then reports it full', async () => {
    const free = [5, 50, 99]
    const taken = Array.from({ length: 100 }, (_, slot) => slot).filter((s) => !free.includes(s))
    await takeSlots(space, 3, taken)
    const { stub, request } = shard(space, 3)
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const allocation = await stub.allocate(request())
      if (!allocation.ok) throw new Error('expected an ID')
      ids.push(allocation.id)
    }
    expect(ids.sort()).toEqual(free.map((slot) => String(idAt(space, 3, slot))).sort())
    expect(await stub.allocate(request())).toEqual({
      ok: false,
      retryAfterSeconds: 600 + QUARANTINE_SECONDS,
    })
  })

  it('draws each free ID with the same probability', async () => {
    const free = [0, 1, 2, 17, 40, 41, 63, 80, 98, 99]
    const taken = Array.from({ length: 100 }, (_, slot) => slot).filter((s) => !free.includes(s))
    await takeSlots(space, 0, taken)
    const { stub, request } = shard(space, 0)
    const counts = await runInDurableObject(stub, (instance: IdAllocator) => {
      const counts = new Map<string, number>()
      for (let i = 0; i < 2000; i++) {
        const next = request()
        const allocation = instance.allocate(next)
        if (!allocation.ok) throw new Error('expected an ID')
        counts.set(allocation.id, (counts.get(allocation.id) ?? 0) + 1)
        if (!instance.release(space, allocation.id, next.expiresAt)) throw new Error('not released')
      }
      return counts
    })
    expect(counts.size).toBe(free.length)
    // Expected 200 each; the bounds are more than 5 standard deviations (13.4) away.
    for (const count of counts.values()) expect(count).toBeGreaterThan(130)
    for (const count of counts.values()) expect(count).toBeLessThan(270)
  })

  it('releases an ID only for the publish that holds it', async () => {
    const { stub, request } = shard(space, 1)
    const first = request()
    const allocation = await stub.allocate(first)
    if (!allocation.ok) throw new Error('expected an ID')
    expect(await stub.release(space, allocation.id, first.expiresAt + 1)).toBe(false)
    expect(await stub.lookup(allocation.id)).toMatchObject({ state: 'live' })
    expect(await stub.release(space, allocation.id, first.expiresAt)).toBe(true)
    expect(await stub.lookup(allocation.id)).toEqual({ state: 'never_issued' })
  })

  it('finds the free IDs of a shard across the edges of its slot buckets', async () => {
    // Three buckets and part of a fourth, with one free slot every 100, on both sides of each edge.
    const wide = idSpace(16 * (3 * SLOT_BUCKET_SIZE + 10))
    const size = shardSize(wide, 4)
    const free = Array.from({ length: size }, (_, slot) => slot).filter((s) => s % 100 === 7)
    const taken = Array.from({ length: size }, (_, slot) => slot).filter((s) => s % 100 !== 7)
    await takeSlots(wide, 4, taken)
    const issued = await allIds(wide, 4)
    expect(issued.sort()).toEqual(free.map((slot) => String(idAt(wide, 4, slot))).sort())
  })

  it('counts a released ID free once, however often it is released', async () => {
    const { stub, request } = shard(space, 5)
    const ids = await allIds(space, 5)
    expect(ids.length).toBe(100)
    const [id] = ids
    const { expiresAt } = (await stub.lookup(id!)) as { expiresAt: number }
    expect(await stub.release(space, id!, expiresAt)).toBe(true)
    expect(await stub.release(space, id!, expiresAt)).toBe(false)
    expect(await stub.allocate(request())).toEqual({ ok: true, id })
    expect(await stub.allocate(request())).toMatchObject({ ok: false })
  })

  it('takes no slot for a record outside its shard', async () => {
    const { stub } = shard(space, 6)
    await runInDurableObject(stub, (_instance: IdAllocator, state) => {
      // An ID past the space's end (what a larger space issued), in no slot of this one.
      state.storage.sql.exec(
        'INSERT INTO issued_ids (id, expires_at, reusable_at) VALUES (?, ?, ?)',
        idAt(space, 6, 100),
        Date.now() + LIFETIME_MS,
        Date.now() + LIFETIME_MS + QUARANTINE_SECONDS * 1000,
      )
    })
    expect((await allIds(space, 6)).length).toBe(100)
  })

  it('deletes the records of IDs whose quarantine has ended', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const { stub, request } = shard(space, 2)
    for (let i = 0; i < 5; i++) await stub.allocate(request())
    at(600 + QUARANTINE_SECONDS)
    await stub.allocate(request())
    const rows = await runInDurableObject(stub, (_i: IdAllocator, state) =>
      state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM issued_ids').one(),
    )
    expect(rows.n).toBe(1)
  })

  // How long an allocation takes is the bench's (`npm run bench -- --only publish`, ID
  // allocation): here, that its storage work does not grow with how full the shard is.
  it('reads and writes as many rows in a 90% full shard of the real space as in an empty one', async () => {
    const full = idSpace(900_000)
    const slots = shardSize(full, 7)
    const taken = Array.from({ length: slots }, (_, slot) => slot).filter((s) => s % 10 !== 3)
    const emptyShard = shard(full, 6)
    const fullShard = shard(full, 7)
    await takeSlots(full, 7, taken)

    async function rowsPerAllocation(target: ReturnType<typeof shard>) {
      return runInDurableObject(target.stub, (instance: IdAllocator, state) => {
        instance.allocate(target.request()) // builds the slot index
        const sql = state.storage.sql
        const exec = sql.exec.bind(sql)
        const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = []
        sql.exec = ((query: string, ...bindings: unknown[]) => {
          const cursor = exec(query, ...bindings)
          cursors.push(cursor)
          return cursor
        }) as typeof sql.exec
        try {
          for (let i = 0; i < 100; i++) instance.allocate(target.request())
        } finally {
          sql.exec = exec
        }
        return {
          read: cursors.reduce((sum, c) => sum + c.rowsRead, 0),
          written: cursors.reduce((sum, c) => sum + c.rowsWritten, 0),
          statements: cursors.length,
        }
      })
    }
    const empty = await rowsPerAllocation(emptyShard)
    const ninetyPercent = await rowsPerAllocation(fullShard)
    expect(empty.statements).toBeGreaterThan(0)
    expect(ninetyPercent).toEqual(empty)
  })
})
