import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { idSpaceStatus } from '../../src/ids'
import { callWithEnv } from '../support/helpers'
import { errorOf, published, TOKEN } from '../support/publishing'

/** The status body: what the Worker answers is what the allocator client reports. */
type IdSpaceStatus = Awaited<ReturnType<typeof idSpaceStatus>>

const T0 = Date.UTC(2030, 0, 1)
/** Four IDs, 100000-100003, one per shard: a shard is full as soon as its ID is issued. */
const FOUR = { ID_SPACE_SIZE: '4' }
const AUTH = { Authorization: `Bearer ${TOKEN}` }

/** Moves the clock of the Worker and the Durable Objects to `T0 + seconds`. */
function at(seconds: number): void {
  vi.setSystemTime(T0 + seconds * 1000)
}

function iso(seconds: number): string {
  return new Date(T0 + seconds * 1000).toISOString()
}

function shardOf(id: string): number {
  return (Number(id) - 100_000) % 4
}

async function status(vars: Partial<Cloudflare.Env> = FOUR): Promise<IdSpaceStatus> {
  const res = await callWithEnv(vars, '/editor-api/status', { headers: AUTH })
  expect(res.status).toBe(200)
  expect(res.headers.get('Cache-Control')).toBe('no-store')
  expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
  return res.json<IdSpaceStatus>()
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

describe('GET /editor-api/status', () => {
  it('counts live, quarantined and free IDs per shard and in all, through expiry and quarantine', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    expect(await status()).toEqual({
      checkedAt: iso(0),
      lifetimeSeconds: 600,
      quarantineSeconds: 3600,
      sustainedPublishesPerSecond: 4 / 4200,
      total: { size: 4, live: 0, quarantined: 0, free: 4, fullShards: 0, freesAt: null },
      shards: [0, 1, 2, 3].map((shard) => ({
        shard,
        size: 1,
        live: 0,
        quarantined: 0,
        free: 1,
        freesAt: null,
      })),
    })

    const a = await published(FOUR) // expires at 600, free again at 4200
    at(300)
    const b = await published(FOUR) // expires at 900, free again at 4500
    at(700)
    const c = await published(FOUR) // expires at 1300, free again at 4900
    const afterExpiry = await status()
    expect(afterExpiry.total).toEqual({
      size: 4,
      live: 2,
      quarantined: 1,
      free: 1,
      fullShards: 3,
      freesAt: iso(4200),
    })
    const byShard = (s: IdSpaceStatus, id: string) => s.shards[shardOf(id)]
    expect(byShard(afterExpiry, a.id)).toMatchObject({
      live: 0,
      quarantined: 1,
      freesAt: iso(4200),
    })
    expect(byShard(afterExpiry, b.id)).toMatchObject({
      live: 1,
      quarantined: 0,
      freesAt: iso(4500),
    })
    expect(byShard(afterExpiry, c.id)).toMatchObject({
      live: 1,
      quarantined: 0,
      freesAt: iso(4900),
    })
    expect(afterExpiry.shards.filter((s) => s.free === 1)).toHaveLength(1)

    at(4300)
    const afterQuarantine = await status()
    expect(afterQuarantine.total).toEqual({
      size: 4,
      live: 0,
      quarantined: 2,
      free: 2,
      fullShards: 2,
      freesAt: iso(4500),
    })
    expect(byShard(afterQuarantine, a.id)).toMatchObject({ free: 1, freesAt: null })
  })

  it('counts the full space in 16 shards of 56,250', async () => {
    const full = await status({})
    expect(full.total).toMatchObject({ size: 900_000, free: 900_000, fullShards: 0 })
    expect(full.shards).toHaveLength(16)
    expect(full.shards.every((s) => s.size === 56_250)).toBe(true)
    expect(full.sustainedPublishesPerSecond).toBeCloseTo(214.29, 2)
  })

  it('answers 401 without the token and 404 when no token is configured', async () => {
    const without = await callWithEnv(FOUR, '/editor-api/status')
    expect(without.status).toBe(401)
    expect((await errorOf(without)).code).toBe('unauthorized')
    const wrong = await callWithEnv(FOUR, '/editor-api/status', {
      headers: { Authorization: 'Bearer nope' },
    })
    expect(wrong.status).toBe(401)
    const off = await callWithEnv({ PUBLISH_TOKEN: undefined }, '/editor-api/status', {
      headers: AUTH,
    })
    expect(off.status).toBe(404)
    expect((await errorOf(off)).code).toBe('not_found')
  })

  it('answers 405 with Allow: GET to other methods', async () => {
    const res = await callWithEnv(FOUR, '/editor-api/status', { method: 'POST', headers: AUTH })
    expect(res.status).toBe(405)
    expect(res.headers.get('Allow')).toBe('GET')
  })

  it('answers 503 unavailable when a shard cannot count', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const unreachable = {
      getByName: () => ({ count: () => Promise.reject(new Error('DO unreachable')) }),
    } as unknown as Cloudflare.Env['ID_ALLOCATOR']
    const res = await callWithEnv({ ID_ALLOCATOR: unreachable }, '/editor-api/status', {
      headers: AUTH,
    })
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
    vi.restoreAllMocks()
  })
})
