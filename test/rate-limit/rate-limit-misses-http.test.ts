/**
 * The miss limit through HTTP (docs/rate-limits.md#misses): misses past a budget refuse every
 * request for a penalty that doubles, per client and per prefix, and a hit costs no more
 * Durable Object requests than before.
 */
import {
  createExecutionContext,
  reset,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app'
import { clientAddress } from '../../src/rate-limit/testing'
import { callWithEnv, logged, storeExport } from '../support/helpers'
import { countingLimiter, SMALL_MISS_BUDGETS } from '../support/miss-limit'

const LIVE = '123456'
const DOC = '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}'
const T0 = Date.UTC(2030, 0, 1)
const VARS = SMALL_MISS_BUDGETS

/** The Durable Object calls a request made, by method name. */
let calls: string[] = []
const countedLimiter = countingLimiter(['hit', 'miss', 'networkMiss'], (method) =>
  calls.push(method),
)

function get(ip: string, id: string, vars: Partial<Cloudflare.Env> = {}): Promise<Response> {
  return callWithEnv({ ...VARS, RATE_LIMITER: countedLimiter, ...vars }, `/server-api?id=${id}`, {
    headers: { 'CF-Connecting-IP': ip },
  })
}

/** `n` misses from `ip`, each answered 404. */
async function miss(ip: string, n: number, vars: Partial<Cloudflare.Env> = {}): Promise<void> {
  for (let i = 0; i < n; i++) expect((await get(ip, '999999', vars)).status).toBe(404)
}

/** A prefix budget that a client's own misses never reach. */
const WIDE_PREFIX = { RATE_LIMIT_PREFIX_MISSES: '100/600' }

function at(seconds: number): void {
  vi.setSystemTime(T0 + seconds * 1000)
}

/** Asserts a 429 for misses: its `Retry-After`, its body and the cause its message names. */
async function expectPenalty(res: Response, seconds: number, whose: RegExp): Promise<void> {
  expect(res.status).toBe(429)
  expect(res.headers.get('Retry-After')).toBe(String(seconds))
  const body = await res.json<{
    error: { code: string; message: string; retryAfterSeconds: number }
  }>()
  expect(body.error.code).toBe('rate_limited')
  expect(body.error.retryAfterSeconds).toBe(seconds)
  expect(body.error.message).toMatch(/exports that do not exist/)
  expect(body.error.message).toMatch(whose)
}

afterEach(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  calls = []
  await reset()
})

describe('misses per client', () => {
  it('refuses the next hit of a client that missed past its budget, for the first penalty', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    await storeExport(LIVE, DOC, { ttlSeconds: 36_000 })
    const ip = '198.51.10.1'
    await miss(ip, 4)
    calls = []
    const refused = await get(ip, LIVE)
    // The miss that started the penalty told this isolate: the object is not asked again.
    expect(calls).toEqual([])
    await expectPenalty(refused, 60, /this address/)
    // The headers still describe the two request windows: 4 requests counted, the refusal not.
    expect(refused.headers.get('RateLimit')).toBe('"short";r=96;t=60, "long";r=996;t=3600')
    expect(refused.headers.get('X-RateLimit-Remaining')).toBe('96')
    at(60)
    expect((await get(ip, LIVE)).status).toBe(200)
  })

  it('lets a client stay within its budget unrefused', async () => {
    await storeExport(LIVE, DOC)
    const ip = '198.51.11.1'
    await miss(ip, 3)
    expect((await get(ip, LIVE)).status).toBe(200)
  })

  it('counts 410 expired and 400 invalid_id as misses too', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    await storeExport('654321', DOC, { ttlSeconds: 60, publishedAt: T0 - 120_000 })
    const ip = '198.51.12.1'
    expect((await get(ip, '654321')).status).toBe(410)
    expect((await get(ip, 'abc')).status).toBe(400)
    await miss(ip, 2)
    await expectPenalty(await get(ip, LIVE), 60, /this address/)
  })

  it('doubles the penalty on each breach, up to the longest', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    await storeExport(LIVE, DOC, { ttlSeconds: 36_000 })
    const ip = '198.51.13.1'
    let now = 0
    const penalties: string[] = []
    for (let breach = 0; breach < 4; breach++) {
      at(now)
      // The miss window runs on through a penalty: the first miss after it breaches again.
      await miss(ip, breach === 0 ? 4 : 1, WIDE_PREFIX)
      const res = await get(ip, LIVE, WIDE_PREFIX)
      expect(res.status).toBe(429)
      const seconds = Number(res.headers.get('Retry-After'))
      penalties.push(`${seconds}`)
      now += seconds
    }
    expect(penalties).toEqual(['60', '120', '240', '240'])
  })

  it('refuses nobody for misses when the miss limit is off', async () => {
    await storeExport(LIVE, DOC)
    const ip = '198.51.14.1'
    await miss(ip, 10, { RATE_LIMIT_MISSES: 'off' })
    expect((await get(ip, LIVE, { RATE_LIMIT_MISSES: 'off' })).status).toBe(200)
    expect(calls.filter((call) => call === 'miss')).toEqual([])
  })
})

describe('settings of the miss limit', () => {
  it.each([
    ['RATE_LIMIT_MISSES', 'maybe'],
    ['RATE_LIMIT_CLIENT_MISSES', '30'],
    ['RATE_LIMIT_PREFIX_MISSES', '0/60'],
    ['RATE_LIMIT_FIRST_PENALTY_SECONDS', 'soon'],
  ])('answers 500 and logs it when %s is %j', async (name, value) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await get('198.51.30.1', LIVE, { [name]: value })
    expect(res.status).toBe(500)
    expect(logged(log).join(' ')).toMatch(/miss|RATE_LIMIT_/)
  })
})

describe('misses per prefix', () => {
  it('catches many /64s of one /48, refusing a fresh /64 on its first request', async () => {
    await storeExport(LIVE, DOC)
    for (let i = 1; i <= 6; i++) await miss(`2001:db8:7:${i}::1`, 1)
    calls = []
    await expectPenalty(await get('2001:db8:7:99::1', LIVE), 60, /this network/)
    // The object refused it (it might have been a clean neighbour); then the isolate remembers.
    expect(calls).toEqual(['hit'])
    await expectPenalty(await get('2001:db8:7:99::1', LIVE), 60, /this network/)
    expect(calls).toEqual(['hit'])
    expect((await get('2001:db8:8:1::1', LIVE)).status).toBe(200)
  })

  it('catches many IPv4 addresses of one /24, and no address of another', async () => {
    await storeExport(LIVE, DOC)
    for (let i = 1; i <= 6; i++) await miss(`192.0.2.${i}`, 1)
    await expectPenalty(await get('192.0.2.200', LIVE), 60, /this network/)
    expect((await get('192.0.3.1', LIVE)).status).toBe(200)
  })

  it('refuses strangers of a penalized prefix in an isolate that has not heard of it from its first miss on', async () => {
    await storeExport(LIVE, DOC)
    // Misses answered by another isolate: this one has not heard of the penalty.
    const elsewhere = createApp()
    for (let i = 1; i <= 6; i++) {
      const ctx = createExecutionContext()
      const request = new Request(`https://example.com/server-api?id=999999`, {
        headers: { 'CF-Connecting-IP': `192.0.4.${i}` },
      })
      expect((await elsewhere.fetch(request, { ...env, ...VARS }, ctx)).status).toBe(404)
      await waitOnExecutionContext(ctx)
    }
    // A stranger's hit here is admitted: what this isolate knows of the network is nothing yet
    // (the bound per burst and per isolate, docs/rate-limits.md#bursts). Its miss is counted
    // before its answer, and the network's answer teaches the penalty.
    expect((await get('192.0.4.100', LIVE)).status).toBe(200)
    expect((await get('192.0.4.101', '999999')).status).toBe(404)
    calls = []
    // That 7th miss, past a budget of 5 per 600 s, lengthened the penalty: paid for 7 × 120 s
    // after the window's start.
    await expectPenalty(await get('192.0.4.200', LIVE), 840, /this network/)
    expect(calls).toEqual(['hit'])
  })
})

describe('what a request costs the limiter', () => {
  it('costs a hit from a fresh client one call to its object, and no storage', async () => {
    await storeExport(LIVE, DOC)
    const ip = '198.51.20.1'
    expect((await get(ip, LIVE)).status).toBe(200)
    expect(calls).toEqual(['hit'])
    const stub = env.RATE_LIMITER.getByName(clientAddress(ip).key)
    const stored = await runInDurableObject(stub, async (_, state) => ({
      keys: [...state.storage.kv.list()].length,
      alarm: await state.storage.getAlarm(),
    }))
    expect(stored).toEqual({ keys: 0, alarm: null })
  })

  it("costs a miss two calls more, at once, before its answer: its client's and its network's", async () => {
    expect((await get('198.51.21.1', '999999')).status).toBe(404)
    expect(calls).toEqual(['hit', 'miss', 'networkMiss'])
  })
})

describe('what operators see', () => {
  it('logs a refusal for misses with the length of the prefix penalized, never the address', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    for (let i = 1; i <= 4; i++) await get('2001:db8:9:1::1', '999999')
    await get('2001:db8:9:1::1', LIVE)
    const last = logged(log).at(-1)!
    expect(JSON.parse(last)).toMatchObject({ status: 429, limiter: 'refused', penalty: '/64' })
    expect(last).not.toMatch(/2001|db8/)
  })
})
