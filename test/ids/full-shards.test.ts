import { reset, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { allocateId, releaseId, type IdAllocator } from '../../src/ids'
import { idAt, idSpace, shardName, shardOfId, shardSize, type IdSpace } from '../support/id-layout'
import { errorOf, published, publishWith } from '../support/publishing'

const LIFETIME_MS = 600_000
const QUARANTINE_SECONDS = 3600

/** Fills every slot of shard `k` but `leave`, straight in its SQL table. */
async function fillShard(space: IdSpace, k: number, leave = 0): Promise<void> {
  const stub = env.ID_ALLOCATOR.getByName(shardName(space, k))
  await runInDurableObject(stub, (_instance: IdAllocator, state) => {
    const expiresAt = Date.now() + LIFETIME_MS
    for (let slot = leave; slot < shardSize(space, k); slot++) {
      state.storage.sql.exec(
        'INSERT INTO issued_ids (id, expires_at, reusable_at) VALUES (?, ?, ?)',
        idAt(space, k, slot),
        expiresAt,
        expiresAt + QUARANTINE_SECONDS * 1000,
      )
    }
  })
}

/** The real allocator namespace, recording each shard `allocate` asked and whether it issued. */
function recordingAllocator() {
  const asked: { shard: string; issued: boolean }[] = []
  const namespace = {
    getByName(name: string) {
      const real = env.ID_ALLOCATOR.getByName(name)
      return new Proxy(real, {
        get: (target, key) =>
          key === 'allocate'
            ? async (request: Parameters<typeof real.allocate>[0]) => {
                const allocation = await target.allocate(request)
                asked.push({ shard: name, issued: allocation.ok })
                return allocation
              }
            : Reflect.get(target, key),
      })
    },
  } as unknown as Cloudflare.Env['ID_ALLOCATOR']
  return { namespace, asked }
}

afterEach(async () => {
  await reset()
})

// Each test has a space of its own size: what an isolate learnt of a space's shards stays with it
// for the file's run, and must not decide another test.
describe('publishing into a space with full shards', () => {
  it('asks each full shard once, not at every publish', async () => {
    const space = idSpace(1616) // 16 shards of 101 IDs
    const open = 9
    for (let k = 0; k < space.shards; k++) if (k !== open) await fillShard(space, k)
    const allocator = recordingAllocator()
    const vars = { ID_SPACE_SIZE: String(space.size), ID_ALLOCATOR: allocator.namespace }
    const ids: string[] = []
    for (let i = 0; i < 10; i++) ids.push((await published(vars)).id)

    expect(new Set(ids).size).toBe(10)
    for (const id of ids) expect(shardOfId(space, id)).toBe(open)
    const full = allocator.asked.filter((call) => !call.issued).map((call) => call.shard)
    // Asked anew at every publish, the 15 full shards would cost 75 calls on average.
    expect(new Set(full).size).toBe(full.length)
    expect(full.length).toBeLessThanOrEqual(space.shards - 1)
    expect(allocator.asked.filter((call) => call.issued).length).toBe(10)
  })

  it('still issues an ID freed in a shard it knows full, and refuses only a full space', async () => {
    const space = idSpace(32) // 16 shards of 2 IDs
    for (let k = 0; k < space.shards; k++) await fillShard(space, k)
    const vars = { ID_SPACE_SIZE: String(space.size) }
    const refused = await publishWith(vars)
    expect(refused.status).toBe(503)
    expect(await errorOf(refused)).toMatchObject({ code: 'capacity' })

    // Released by the shard itself, as another isolate's failed publish would: this isolate
    // still holds the shard full.
    const id = String(idAt(space, 5, 1))
    const stub = env.ID_ALLOCATOR.getByName(shardName(space, 5))
    const { expiresAt } = (await stub.lookup(id)) as { expiresAt: number }
    expect(await stub.release(space, id, expiresAt)).toBe(true)
    expect((await published(vars)).id).toBe(id)
    expect((await publishWith(vars)).status).toBe(503)
  })

  it('asks a shard first again once this isolate released an ID there', async () => {
    const space = idSpace(48) // 16 shards of 3 IDs
    for (let k = 0; k < space.shards; k++) await fillShard(space, k)
    const allocator = recordingAllocator()
    const spaceEnv = {
      ...env,
      ID_SPACE_SIZE: String(space.size),
      ID_ALLOCATOR: allocator.namespace,
    }
    const expiresAt = Date.now() + LIFETIME_MS

    // Three times, so that a random order asking the shard first by chance (1 in 16) cannot pass.
    for (const k of [3, 11, 3]) {
      // Every shard answers full, so this isolate now knows them all full.
      await expect(allocateId(spaceEnv, expiresAt)).rejects.toThrow('id_space_full')
      const id = String(idAt(space, k, 2))
      const stub = env.ID_ALLOCATOR.getByName(shardName(space, k))
      const held = (await stub.lookup(id)) as { expiresAt: number }
      expect(await releaseId(spaceEnv, id, held.expiresAt)).toBe(true)
      allocator.asked.length = 0
      expect(await allocateId(spaceEnv, expiresAt)).toBe(id)
      expect(allocator.asked).toEqual([{ shard: shardName(space, k), issued: true }])
    }
  })
})
