/**
 * What a rate-limit object keeps, and for how long (docs/security.md#what-the-rate-limiter-keeps,
 * docs/rate-limits.md#durability): nothing for a lone request, nothing once windows and
 * penalties have lapsed, and at most one request more than the limits per eviction.
 */
import {
  evictAllDurableObjects,
  reset,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clientAddress } from '../../src/rate-limit/testing'
import { callWithEnv } from '../support/helpers'

const SMALL = { RATE_LIMIT_SHORT: '3/10', RATE_LIMIT_LONG: '5/100', RATE_LIMIT_MISSES: 'off' }
const MISSES = {
  RATE_LIMIT_SHORT: '100/10',
  RATE_LIMIT_LONG: '1000/100',
  RATE_LIMIT_CLIENT_MISSES: '2/100',
  RATE_LIMIT_PREFIX_MISSES: '50/100',
  RATE_LIMIT_FIRST_PENALTY_SECONDS: '60',
  RATE_LIMIT_LONGEST_PENALTY_SECONDS: '600',
}
const T0 = Date.UTC(2030, 0, 1)

function get(ip: string, vars: Partial<Cloudflare.Env> = SMALL): Promise<Response> {
  return callWithEnv(vars, '/server-api?id=999999', { headers: { 'CF-Connecting-IP': ip } })
}

/** The object of `ip`'s client, or of its network. */
function limiter(ip: string, of: 'client' | 'network' = 'client') {
  const { key, prefix } = clientAddress(ip)
  return env.RATE_LIMITER.getByName(of === 'client' ? key : prefix)
}

/** Everything the object of `ip`'s client (or network) holds in storage: its keys, its alarm. */
function inspect(
  ip: string,
  of: 'client' | 'network' = 'client',
): Promise<{ keys: string[]; alarm: number | null }> {
  return runInDurableObject(limiter(ip, of), async (_, state) => ({
    keys: [...state.storage.kv.list()].map(([key]) => key),
    alarm: await state.storage.getAlarm(),
  }))
}

function at(seconds: number): void {
  vi.setSystemTime(T0 + seconds * 1000)
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

describe('what the limiter keeps', () => {
  it('stores nothing and sets no alarm for a client that asks once', async () => {
    const ip = '203.0.113.50'
    expect((await get(ip)).status).toBe(404)
    expect(await inspect(ip)).toEqual({ keys: [], alarm: null })
  })

  it('empties its storage once the long window has lapsed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const ip = '203.0.113.51'
    at(0)
    await get(ip)
    await get(ip)
    expect(await inspect(ip)).toEqual({ keys: [`client:${ip}`], alarm: T0 + 100_000 })
    at(100)
    expect(await runDurableObjectAlarm(limiter(ip))).toBe(true)
    expect(await inspect(ip)).toEqual({ keys: [], alarm: null })
    // deleteAll drops the object's database: not a table is left in it.
    const tables = await runInDurableObject(limiter(ip), (_, state) => [
      ...state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'"),
    ])
    expect(tables).toEqual([])
  })

  it("keeps each client in its own object, until that client's windows lapse", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    await get('203.0.113.52')
    await get('203.0.113.52')
    at(50)
    await get('203.0.113.53')
    await get('203.0.113.53')
    at(100)
    await runDurableObjectAlarm(limiter('203.0.113.52'))
    expect(await inspect('203.0.113.52')).toEqual({ keys: [], alarm: null })
    expect(await inspect('203.0.113.53')).toEqual({
      keys: ['client:203.0.113.53'],
      alarm: T0 + 150_000,
    })
    at(150)
    await runDurableObjectAlarm(limiter('203.0.113.53'))
    expect(await inspect('203.0.113.53')).toEqual({ keys: [], alarm: null })
    // Their network's object was never asked: neither missed.
    expect(await inspect('203.0.113.52', 'network')).toEqual({ keys: [], alarm: null })
  })

  it('keeps a penalized client until its penalty and one miss window have passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const ip = '203.0.113.54'
    at(0)
    for (let i = 0; i < 3; i++) expect((await get(ip, MISSES)).status).toBe(404)
    expect((await get(ip, MISSES)).status).toBe(429)
    // The penalty ends at 60 s; its breach is remembered for one miss window (100 s) more. The
    // network's 3 misses are its own record, in its own object.
    expect((await inspect(ip)).keys).toEqual([`client:${ip}`])
    expect((await inspect(ip, 'network')).keys).toEqual(['prefix'])
    at(100)
    await runDurableObjectAlarm(limiter(ip, 'network'))
    expect(await inspect(ip, 'network')).toEqual({ keys: [], alarm: null })
    await runDurableObjectAlarm(limiter(ip))
    expect((await inspect(ip)).keys).toEqual([`client:${ip}`])
    at(160)
    await runDurableObjectAlarm(limiter(ip))
    expect(await inspect(ip)).toEqual({ keys: [], alarm: null })
  })
})

describe('what an eviction forgets', () => {
  it('serves at most one request more than the limits per eviction of the object', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const ip = '203.0.113.60'
    let served = 0
    const evictions = 3
    for (let round = 0; round <= evictions; round++) {
      while ((await get(ip)).status === 404) served++
      if (round < evictions) await evictAllDurableObjects()
    }
    // The short window allows 3; each eviction forgets at most the one request held unwritten.
    expect(served).toBeGreaterThanOrEqual(3)
    expect(served).toBeLessThanOrEqual(3 + evictions)
  })

  it('forgets the lone request of a client that asked once', async () => {
    const ip = '203.0.113.61'
    await get(ip)
    await evictAllDurableObjects()
    const res = await get(ip)
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('2')
  })
})
