import {
  abortAllDurableObjects,
  evictAllDurableObjects,
  reset,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clientAddress, CLIENT_RECORD_PREFIX } from '../../src/rate-limit/testing'
import type { ClientRecord } from '../support/limiter-shapes'
import { callWithEnv, logged } from '../support/helpers'

/** Request counting alone: every request here is a miss, which the miss limit would refuse. */
const LIMITS = { RATE_LIMIT_SHORT: '50/60', RATE_LIMIT_LONG: '500/3600', RATE_LIMIT_MISSES: 'off' }

/** A counted request from `ip`; answers 404 (no such export) while admitted. */
function get(ip: string, vars: Partial<Cloudflare.Env> = LIMITS): Promise<Response> {
  return callWithEnv(vars, '/server-api?id=999999', { headers: { 'CF-Connecting-IP': ip } })
}

/** `X-RateLimit-Remaining` of the next request from `ip`, which is counted too. */
async function remainingAfterNext(ip: string): Promise<number> {
  return Number((await get(ip)).headers.get('X-RateLimit-Remaining'))
}

/** The client's object. */
function limiter(ip: string) {
  return env.RATE_LIMITER.getByName(clientAddress(ip).key)
}

/** What the client's object has in storage for the client: the short window's count, and the alarm. */
function stored(ip: string): Promise<{ count: number | null; alarm: number | null }> {
  return runInDurableObject(limiter(ip), async (_, state) => ({
    count:
      state.storage.kv.get<ClientRecord>(CLIENT_RECORD_PREFIX + clientAddress(ip).key)?.windows[
        'short'
      ]?.count ?? null,
    alarm: await state.storage.getAlarm(),
  }))
}

afterEach(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  await reset()
})

describe('write-behind counts', () => {
  it('holds a lone request in memory only, and writes when a second comes', async () => {
    const ip = '203.0.113.1'
    const started = Date.now()
    await get(ip)
    expect(await stored(ip)).toEqual({ count: null, alarm: null })
    await get(ip)
    const after = await stored(ip)
    expect(after.count).toBe(2)
    // The alarm that deletes the record once its long window has lapsed.
    expect(after.alarm).toBeGreaterThanOrEqual(started + 3600_000)
    expect(after.alarm).toBeLessThanOrEqual(Date.now() + 3600_000)
  })

  it("holds a busy client's next requests until the flush alarm writes them", async () => {
    const ip = '203.0.113.7'
    for (let i = 0; i < 2; i++) await get(ip)
    const started = Date.now()
    for (let i = 0; i < 3; i++) await get(ip)
    const before = await stored(ip)
    expect(before.count).toBe(2)
    // The flush alarm, one interval (9 s) after the first request held beyond one.
    expect(before.alarm).toBeGreaterThanOrEqual(started + 9_000)
    expect(before.alarm).toBeLessThanOrEqual(Date.now() + 9_000)

    expect(await runDurableObjectAlarm(limiter(ip))).toBe(true)
    expect((await stored(ip)).count).toBe(5)
  })

  it('keeps the counts the alarm wrote through a restart of the object', async () => {
    const ip = '203.0.113.2'
    for (let i = 0; i < 5; i++) await get(ip)
    await runDurableObjectAlarm(limiter(ip))
    await abortAllDurableObjects()
    // A new instance on the same storage: 5 counted, this one is the 6th.
    expect(await remainingAfterNext(ip)).toBe(50 - 6)
  })

  it('loses only the counts not yet written when the object restarts', async () => {
    const ip = '203.0.113.3'
    for (let i = 0; i < 5; i++) await get(ip)
    await runDurableObjectAlarm(limiter(ip))
    for (let i = 0; i < 4; i++) await get(ip)
    expect((await stored(ip)).count).toBe(5)
    // A crash or a deploy: the 4 requests since the last write are the only ones lost.
    await abortAllDurableObjects()
    expect(await remainingAfterNext(ip)).toBe(50 - 6)
  })

  it('writes by its own alarm within the flush interval, so idle eviction loses nothing', async () => {
    const ip = '203.0.113.4'
    const vars = { ...LIMITS, RATE_LIMIT_FLUSH_SECONDS: '1' }
    for (let i = 0; i < 4; i++) await get(ip, vars)
    expect((await stored(ip)).count).toBe(2)
    await vi.waitFor(async () => expect((await stored(ip)).count).toBe(4), {
      timeout: 20_000, // a guard against a hang: the flush is due after 1 s
      interval: 100,
    })
    await evictAllDurableObjects()
    expect(await remainingAfterNext(ip)).toBe(50 - 5)
  })

  it('admits exactly the limit out of 300 concurrent requests', async () => {
    const ip = '203.0.113.5'
    const vars = {
      RATE_LIMIT_SHORT: '120/60',
      RATE_LIMIT_LONG: '1200/3600',
      RATE_LIMIT_MISSES: 'off',
    }
    const responses = await Promise.all(Array.from({ length: 300 }, () => get(ip, vars)))
    expect(responses.filter((res) => res.status === 404)).toHaveLength(120)
    expect(responses.filter((res) => res.status === 429)).toHaveLength(180)
    const remaining = responses
      .filter((res) => res.status === 404)
      .map((res) => Number(res.headers.get('X-RateLimit-Remaining')))
      .sort((a, b) => a - b)
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => i))
  })

  it.each(['abc', '0', '10', '2.5'])(
    'answers 500 and logs it when RATE_LIMIT_FLUSH_SECONDS is %j',
    async (value) => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {})
      const res = await get('203.0.113.6', { ...LIMITS, RATE_LIMIT_FLUSH_SECONDS: value })
      expect(res.status).toBe(500)
      expect(logged(log).join(' ')).toMatch(/RATE_LIMIT_FLUSH_SECONDS/)
    },
  )
})
