/**
 * Wide networks (docs/rate-limits.md#wide-networks): misses count for the client's IPv4 /16 or
 * IPv6 /32 too, in that prefix's own object, reached only on the miss path. Many networks of one
 * block, each within its own budget, are caught by the block's; hits still cost one call.
 */
import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callWithEnv, logged, storeExport } from '../support/helpers'
import { countingLimiter, SMALL_MISS_BUDGETS } from '../support/miss-limit'

const LIVE = '123456'
const UNKNOWN = '999999'
const DOC = '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}'
/** A network may miss 5 times, a block 8: three networks of 3 misses each breach the block. */
const VARS = { ...SMALL_MISS_BUDGETS, RATE_LIMIT_WIDE_MISSES: '8/600' }

/** The Durable Object calls requests made, by method name. */
let calls: string[] = []
const countedLimiter = countingLimiter(['hit', 'miss', 'wideMiss'], (method) => calls.push(method))

function get(ip: string, id: string, vars: Partial<Cloudflare.Env> = {}): Promise<Response> {
  return callWithEnv({ ...VARS, RATE_LIMITER: countedLimiter, ...vars }, `/server-api?id=${id}`, {
    headers: { 'CF-Connecting-IP': ip },
  })
}

async function message(res: Response): Promise<string> {
  expect(res.status).toBe(429)
  return (await res.json<{ error: { message: string } }>()).error.message
}

afterEach(async () => {
  vi.restoreAllMocks()
  calls = []
  await reset()
})

describe('misses of a wide network', () => {
  it('penalizes an IPv4 /16 whose /24s each stay within their budget', async () => {
    await storeExport(LIVE, DOC)
    for (const net of [1, 2, 3]) {
      for (let a = 1; a <= 3; a++) expect((await get(`10.9.${net}.${a}`, UNKNOWN)).status).toBe(404)
    }
    // Another /24 of the block, never seen: refused from this isolate's memory.
    calls = []
    expect(await message(await get('10.9.200.1', LIVE))).toMatch(/this wider network/)
    expect(calls).toEqual([])
    // Another block is not concerned.
    expect((await get('10.8.1.1', LIVE)).status).toBe(200)
  })

  it('teaches the networks that reported a miss, so their objects refuse hits too', async () => {
    await storeExport(LIVE, DOC)
    for (const net of [1, 2, 3]) {
      for (let a = 1; a <= 3; a++) expect((await get(`10.7.${net}.${a}`, UNKNOWN)).status).toBe(404)
    }
    // Asked directly, as an isolate that never heard of the penalty would ask it.
    const verdict = await env.RATE_LIMITER.getByName('10.7.3.0/24').hit('10.7.3.50', {
      rules: [{ name: 'short', limit: 100, periodSeconds: 60 }],
      misses: {
        enabled: true,
        client: { budget: 3, windowSeconds: 600 },
        prefix: { budget: 5, windowSeconds: 600 },
        wide: { budget: 8, windowSeconds: 600 },
        firstPenaltySeconds: 60,
        longestPenaltySeconds: 240,
      },
    })
    expect(verdict).toMatchObject({ admitted: false, penalty: 'wide' })
  })

  it('penalizes an IPv6 /32 whose /48s each stay within their budget, and logs the level', async () => {
    await storeExport(LIVE, DOC)
    for (const net of [1, 2, 3]) {
      for (let a = 1; a <= 3; a++) {
        expect((await get(`2001:db8:${net}:${a}::1`, UNKNOWN)).status).toBe(404)
      }
    }
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    expect(await message(await get('2001:db8:ff:1::1', LIVE))).toMatch(/this wider network/)
    const line = logged(log).at(-1)!
    expect(JSON.parse(line)).toMatchObject({ status: 429, limiter: 'refused', penalty: '::/32' })
    expect(line).not.toMatch(/2001|db8/)
    expect((await get('2001:db9:1:1::1', LIVE)).status).toBe(200)
  })

  it('answers at most its budget and the breach when its networks miss all at once', async () => {
    await storeExport(LIVE, DOC)
    // 12 networks of 2 clients, each within its own budgets: 24 misses of the block together.
    const ips = Array.from(
      { length: 24 },
      (_, i) => `10.4.${1 + (i % 12)}.${1 + Math.floor(i / 12)}`,
    )
    const statuses = (await Promise.all(ips.map((ip) => get(ip, UNKNOWN)))).map((r) => r.status)
    expect(statuses.filter((s) => s === 404)).toHaveLength(8 + 1)
    expect(statuses.filter((s) => s === 429)).toHaveLength(24 - 9)
    // The refused misses counted nowhere: each network may still find exports after the penalty.
    expect(await message(await get('10.4.1.1', LIVE))).toMatch(/this wider network/)
  })

  it('answers a miss 503 when the block’s object cannot answer, and serves hits', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(LIVE, DOC)
    const failing = {
      getByName(name: string) {
        const real = env.RATE_LIMITER.getByName(name)
        return name.endsWith('/16')
          ? { wideMiss: () => Promise.reject(new Error('Durable Object is overloaded.')) }
          : real
      },
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    const miss = await get('10.3.1.1', UNKNOWN, { RATE_LIMITER: failing })
    expect(miss.status).toBe(503)
    expect(miss.headers.get('Retry-After')).toBe('5')
    expect((await get('10.3.1.1', LIVE, { RATE_LIMITER: failing })).status).toBe(200)
    const incidents = error.mock.calls.map(([line]) => (line as { incident?: string }).incident)
    expect(incidents).toContain('limiter_failed_closed')
  })

  it('reads the answer of a block’s object from before 1.1.1: the penalty’s end alone', async () => {
    await storeExport(LIVE, DOC)
    let penaltyUntil = 0
    const older = {
      getByName(name: string) {
        const real = env.RATE_LIMITER.getByName(name)
        return name.endsWith('/16') ? { wideMiss: () => Promise.resolve(penaltyUntil) } : real
      },
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    expect((await get('10.20.1.1', UNKNOWN, { RATE_LIMITER: older })).status).toBe(404)
    penaltyUntil = Date.now() + 60_000
    const refused = await get('10.20.2.1', UNKNOWN, { RATE_LIMITER: older })
    expect(refused.status).toBe(404)
    // Its penalty is remembered for the block: the next request of the block is refused.
    expect(await message(await get('10.20.3.1', LIVE, { RATE_LIMITER: older }))).toMatch(
      /this wider network/,
    )
  })

  it('leaves an exempt network out of its block', async () => {
    await storeExport(LIVE, DOC)
    const exempt = { RATE_LIMIT_EXEMPT_NETWORKS: '10.6.0.0/16' }
    for (const net of [1, 2, 3]) {
      for (let a = 1; a <= 3; a++) {
        expect((await get(`10.6.${net}.${a}`, UNKNOWN, exempt)).status).toBe(404)
      }
    }
    expect(calls.filter((call) => call === 'wideMiss')).toEqual([])
    expect((await get('10.6.200.1', LIVE, exempt)).status).toBe(200)
  })
})

describe('what a wide network costs', () => {
  it('costs a hit one call, and a miss two more: one before its answer, one after', async () => {
    await storeExport(LIVE, DOC)
    expect((await get('10.5.1.1', LIVE)).status).toBe(200)
    expect(calls).toEqual(['hit'])
    calls = []
    expect((await get('10.5.1.2', UNKNOWN)).status).toBe(404)
    expect(calls).toEqual(['hit', 'wideMiss', 'miss'])
  })
})
