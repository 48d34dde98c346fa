/**
 * Clean neighbours (docs/rate-limits.md#clean-neighbours): a client whose own record is clean is
 * served through its network's penalty, strangers and guessers of that network are refused, and
 * the clean clients together miss at most a client's budget per penalty. Exempt networks
 * (docs/rate-limits.md#exempt-networks): their clients are held to their own budget only.
 * Through HTTP, in the Workers runtime.
 */
import {
  createExecutionContext,
  reset,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app'
import { callWithEnv, storeExport } from '../support/helpers'
import { SMALL_MISS_BUDGETS } from '../support/miss-limit'

const T0 = Date.UTC(2030, 0, 1)
const LIVE = '123456'
const UNKNOWN = '999999'
const DOC = '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}'
const VARS = SMALL_MISS_BUDGETS

function get(ip: string, id: string, vars: Partial<Cloudflare.Env> = {}): Promise<Response> {
  return callWithEnv({ ...VARS, ...vars }, `/server-api?id=${id}`, {
    headers: { 'CF-Connecting-IP': ip },
  })
}

/** A request through another isolate of the Worker: an app of its own, with its own memory. */
async function getElsewhere(
  isolate: ReturnType<typeof createApp>,
  ip: string,
  id: string,
): Promise<Response> {
  const ctx = createExecutionContext()
  const request = new Request(`https://example.com/server-api?id=${id}`, {
    headers: { 'CF-Connecting-IP': ip },
  })
  const response = await isolate.fetch(request, { ...env, ...VARS }, ctx)
  await waitOnExecutionContext(ctx)
  return response
}

/**
 * Ends the object's instance as an eviction does, after its alarm (due within a flush interval,
 * before an idle object is evicted) wrote what it holds: the next call starts from storage.
 */
async function evict(name: string): Promise<void> {
  const stub = env.RATE_LIMITER.getByName(name)
  await runDurableObjectAlarm(stub)
  await runInDurableObject(stub, (_, state) => state.abort('evicted')).catch(() => {})
}

/** The status and the cause a 429 names ("network", "address", ...), or the status alone. */
async function answer(res: Response): Promise<string> {
  if (res.status !== 429) return String(res.status)
  const body = await res.json<{ error: { message: string } }>()
  return `429 ${/this (\w+)/.exec(body.error.message)?.[1]}`
}

/** Six guessers of the network each miss once: the sixth miss breaches its budget of 5. */
async function penalize(network: string, vars: Partial<Cloudflare.Env> = {}): Promise<void> {
  for (let i = 1; i <= 6; i++)
    expect((await get(`${network}.${i}`, UNKNOWN, vars)).status).toBe(404)
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

describe('a clean client of a penalized network', () => {
  it('is served through the penalty, while strangers and guessers are refused', async () => {
    await storeExport(LIVE, DOC)
    const server = '192.0.20.50'
    expect((await get(server, LIVE)).status).toBe(200)
    await penalize('192.0.20')
    expect(await answer(await get('192.0.20.99', LIVE))).toBe('429 network')
    expect(await answer(await get('192.0.20.1', LIVE))).toBe('429 network')
    for (let i = 0; i < 20; i++) expect((await get(server, LIVE)).status).toBe(200)
  })

  it('stays clean through a typo now and then, and is refused once it guesses', async () => {
    await storeExport(LIVE, DOC)
    // A client budget of 10: the clean clients may miss 10 times through the penalty.
    const vars = { RATE_LIMIT_CLIENT_MISSES: '10/600' }
    const server = '2001:db8:20:50::1'
    for (let i = 0; i < 4; i++) expect((await get(server, LIVE, vars)).status).toBe(200)
    for (let i = 1; i <= 6; i++) {
      expect((await get(`2001:db8:20:${i}::1`, UNKNOWN, vars)).status).toBe(404)
    }
    // A typo: answered, and the server is still mostly finding exports (1 miss in 5 requests).
    expect((await get(server, UNKNOWN, vars)).status).toBe(404)
    expect((await get(server, LIVE, vars)).status).toBe(200)
    // Guessing: once its misses reach half of its requests, the network's penalty refuses it.
    const guesses = []
    for (let i = 0; i < 5; i++) guesses.push(await answer(await get(server, UNKNOWN, vars)))
    expect(guesses).toEqual(['404', '404', '404', '404', '429 network'])
    expect(await answer(await get(server, LIVE, vars))).toBe('429 network')
  })

  it('lets the clean clients together miss at most a client budget and one per penalty', async () => {
    await storeExport(LIVE, DOC)
    // Ten clients, each known and clean before the penalty, each trying to guess through it.
    const clean = Array.from({ length: 10 }, (_, i) => `192.0.21.${100 + i}`)
    for (const ip of clean) {
      for (let i = 0; i < 4; i++) expect((await get(ip, LIVE)).status).toBe(200)
    }
    await penalize('192.0.21')
    let answered = 0
    for (const ip of clean) {
      for (let i = 0; i < 2; i++) if ((await get(ip, UNKNOWN)).status === 404) answered++
    }
    expect(answered).toBe(3 + 1)
  })

  it('is still known when its windows roll over during the penalty, and never stored for it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    await storeExport(LIVE, DOC, { ttlSeconds: 36_000 })
    // A long window of 2 minutes inside a 10-minute penalty.
    const vars = {
      RATE_LIMIT_LONG: '1000/120',
      RATE_LIMIT_FIRST_PENALTY_SECONDS: '600',
      RATE_LIMIT_LONGEST_PENALTY_SECONDS: '2400',
    }
    const server = '192.0.23.50'
    for (let i = 0; i < 3; i++) expect((await get(server, LIVE, vars)).status).toBe(200)
    vi.setSystemTime(T0 + 1000)
    await penalize('192.0.23', vars)
    // Its windows have lapsed; the alarm deletes its stored record.
    vi.setSystemTime(T0 + 130_000)
    const stub = env.RATE_LIMITER.getByName(server)
    await runDurableObjectAlarm(stub)
    const stored = await runInDurableObject(stub, (_, state) =>
      [...state.storage.kv.list()].map(([k]) => k),
    )
    expect(stored).not.toContain(`client:${server}`)
    expect(await answer(await get('192.0.23.99', LIVE, vars))).toBe('429 network')
    expect((await get(server, LIVE, vars)).status).toBe(200)
    expect((await get(server, LIVE, vars)).status).toBe(200)
  })

  it('is served by an isolate that never saw it, while strangers there are refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    await storeExport(LIVE, DOC, { ttlSeconds: 36_000 })
    const server = '192.0.24.50'
    expect((await get(server, LIVE)).status).toBe(200)
    await penalize('192.0.24')
    // Its object takes it for clean once its request has settled (its miss, had it been one,
    // counted).
    vi.setSystemTime(T0 + 11_000)
    // Another isolate, which never saw the server, learns of the penalty from the first miss it
    // counts: until then it admitted the network's strangers (docs/rate-limits.md#bursts).
    const other = createApp()
    expect((await getElsewhere(other, '192.0.24.98', UNKNOWN)).status).toBe(404)
    expect(await answer(await getElsewhere(other, '192.0.24.99', LIVE))).toBe('429 network')
    expect(await answer(await getElsewhere(other, '192.0.24.1', LIVE))).toBe('429 network')
    expect((await getElsewhere(other, server, LIVE)).status).toBe(200)
    expect(await answer(await getElsewhere(other, '192.0.24.99', LIVE))).toBe('429 network')
  })

  it('is still served after its object and its network’s were evicted, having asked once', async () => {
    await storeExport(LIVE, DOC)
    const server = '2001:db8:25:50::1'
    // One request: before the penalty, a lone request is held in memory only.
    expect((await get(server, LIVE)).status).toBe(200)
    for (let i = 1; i <= 6; i++) {
      expect((await get(`2001:db8:25:${i}::1`, UNKNOWN)).status).toBe(404)
    }
    await evict('2001:db8:25::/48')
    await evict('2001:db8:25:50::/64')
    expect((await get(server, LIVE)).status).toBe(200)
    expect(await answer(await get('2001:db8:25:99::1', LIVE))).toBe('429 network')
    // Its requests through the penalty are stored as they come, so it outlives evictions.
    await evict('2001:db8:25:50::/64')
    expect((await get(server, LIVE)).status).toBe(200)
  })

  it('is served when it asks less often than its object is evicted, as the isolates know it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    await storeExport(LIVE, DOC, { ttlSeconds: 36_000 })
    const server = '192.0.26.50'
    // Each request a lone one, forgotten by the object's eviction before the next.
    for (let i = 0; i < 3; i++) {
      expect((await get(server, LIVE)).status).toBe(200)
      await evict(server)
    }
    await penalize('192.0.26')
    await evict(server)
    expect((await get(server, LIVE)).status).toBe(200)
    // Another isolate, which never answered it, now finds it in the object's storage, its
    // request there settled.
    await evict(server)
    vi.setSystemTime(T0 + 11_000)
    const other = createApp()
    expect((await getElsewhere(other, server, LIVE)).status).toBe(200)
    // That isolate has heard of the penalty from no miss yet: its first teaches it.
    expect((await getElsewhere(other, '192.0.26.98', UNKNOWN)).status).toBe(404)
    expect(await answer(await getElsewhere(other, '192.0.26.99', LIVE))).toBe('429 network')
  })

  it('is not vouched for by an isolate that saw it guess, once its object forgot it', async () => {
    await storeExport(LIVE, DOC)
    const guesser = '192.0.27.50'
    for (const id of [LIVE, UNKNOWN, UNKNOWN]) {
      expect((await get(guesser, id)).status).toBe(id === LIVE ? 200 : 404)
      await evict(guesser)
    }
    // Its two misses count for the network too: four more breach its budget of 5.
    for (let i = 1; i <= 4; i++) expect((await get(`192.0.27.${i}`, UNKNOWN)).status).toBe(404)
    await evict(guesser)
    expect(await answer(await get(guesser, LIVE))).toBe('429 network')
  })

  it('is refused through a penalty when it was never seen before it', async () => {
    await storeExport(LIVE, DOC)
    await penalize('192.0.22')
    expect(await answer(await get('192.0.22.50', LIVE))).toBe('429 network')
    expect(await answer(await get('192.0.22.50', LIVE))).toBe('429 network')
  })
})

describe('exempt networks', () => {
  const EXEMPT = { RATE_LIMIT_EXEMPT_NETWORKS: '192.0.30.0/24, 2001:db8:30::/48' }

  it('counts no network misses for their clients: many guessers penalize only themselves', async () => {
    await storeExport(LIVE, DOC)
    await penalize('192.0.30', EXEMPT)
    // The network was not penalized: a stranger of it is served.
    expect((await get('192.0.30.99', LIVE, EXEMPT)).status).toBe(200)
    // Each client still has its own budget: 3 misses and the breach, then its own penalty.
    for (let i = 0; i < 3; i++) expect((await get('192.0.30.1', UNKNOWN, EXEMPT)).status).toBe(404)
    expect(await answer(await get('192.0.30.1', LIVE, EXEMPT))).toBe('429 address')
  })

  it('serves an exempt client through a penalty the rest of a wider network earned', async () => {
    await storeExport(LIVE, DOC)
    const exempt = { RATE_LIMIT_EXEMPT_NETWORKS: '192.0.31.200/29' }
    await penalize('192.0.31', exempt)
    expect(await answer(await get('192.0.31.99', LIVE, exempt))).toBe('429 network')
    expect((await get('192.0.31.201', LIVE, exempt)).status).toBe(200)
    expect((await get('192.0.31.207', LIVE, exempt)).status).toBe(200)
    expect(await answer(await get('192.0.31.208', LIVE, exempt))).toBe('429 network')
  })

  it('covers IPv6 networks, by the address as sent', async () => {
    await storeExport(LIVE, DOC)
    for (let i = 1; i <= 6; i++) {
      expect((await get(`2001:db8:30:${i}::1`, UNKNOWN, EXEMPT)).status).toBe(404)
    }
    expect((await get('2001:DB8:30:ff::1', LIVE, EXEMPT)).status).toBe(200)
  })
})
