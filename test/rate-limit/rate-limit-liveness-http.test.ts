/**
 * What no answer may tell (docs/rate-limits.md#what-an-answer-tells): a refusal never depends on
 * whether the ID is live, a hit is never refused for its own concurrency or its neighbours'
 * doings, and a penalty outlives its object's restart. Through the Worker's fetch, with many
 * requests in flight at once (`Promise.all`), in the Workers runtime.
 */
import {
  createExecutionContext,
  reset,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app'
import { callWithEnv, storeExport } from '../support/helpers'

const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root"]}}'
/** Budgets a burst can outrun, and windows no burst here reaches. */
const VARS = {
  RATE_LIMIT_SHORT: '120/60',
  RATE_LIMIT_LONG: '1200/3600',
  RATE_LIMIT_CLIENT_MISSES: '10/3600',
  RATE_LIMIT_PREFIX_MISSES: '30/3600',
}
const NETWORK_BUDGET = 30

type Ask = [ip: string, id: string]

function get(ip: string, id: string, vars: Partial<Cloudflare.Env> = {}): Promise<Response> {
  return callWithEnv({ ...VARS, ...vars }, `/server-api?id=${id}`, {
    headers: { 'CF-Connecting-IP': ip },
  })
}

/** Sends all of `asks` at once: every one is in flight before the first is answered. */
function together(asks: Ask[], vars: Partial<Cloudflare.Env> = {}): Promise<Response[]> {
  return Promise.all(asks.map(([ip, id]) => get(ip, id, vars)))
}

const LIVE_IDS = ['100001', '100002', '100003', '100004', '100005']

async function publishLive(): Promise<void> {
  for (const id of LIVE_IDS) await storeExport(id, DOC)
}

/** A six-digit ID nobody published. */
function deadId(i: number): string {
  return String(800_000 + i)
}

/** How a burst went for live and for dead IDs, per network. */
interface Outcome {
  live: { asked: number; refused: number; served: number }
  dead: { asked: number; refused: number; answered: number }
  unavailable: number
  missesByNetwork: Map<string, number>
}

async function outcome(asks: Ask[], responses: Response[], networkOf: (ip: string) => string) {
  const o: Outcome = {
    live: { asked: 0, refused: 0, served: 0 },
    dead: { asked: 0, refused: 0, answered: 0 },
    unavailable: 0,
    missesByNetwork: new Map(),
  }
  for (const [i, res] of responses.entries()) {
    const [ip, id] = asks[i]!
    const live = LIVE_IDS.includes(id)
    if (res.status === 503) o.unavailable++
    if (live) {
      o.live.asked++
      if (res.status === 429) o.live.refused++
      else {
        expect(res.status).toBe(200)
        o.live.served++
      }
    } else {
      o.dead.asked++
      if (res.status === 429) o.dead.refused++
      else {
        expect(res.status).toBe(404)
        o.dead.answered++
        const network = networkOf(ip)
        o.missesByNetwork.set(network, (o.missesByNetwork.get(network) ?? 0) + 1)
      }
    }
    if (res.status === 429) {
      // Refused at admission, before the route read anything: for the network's burst room.
      expect(await res.text()).toMatch(/this network are in flight at once/)
    } else await res.body?.cancel()
  }
  return o
}

/**
 * A burst of `perClient` requests from each of `clients` clients in each of the networks: every
 * fifth request for a live ID, the rest for dead ones, interleaved.
 */
function mixedBurst(networks: string[][], perClient: number): Ask[] {
  const asks: Ask[] = []
  let n = 0
  for (let i = 0; i < perClient; i++) {
    for (const clients of networks) {
      for (const ip of clients) {
        asks.push([ip, n % 5 === 0 ? LIVE_IDS[n % LIVE_IDS.length]! : deadId(n)])
        n++
      }
    }
  }
  return asks
}

// Hundreds of objects to reset after the floods.
afterEach(async () => {
  await reset()
}, 120_000)

describe('a mixed burst from many networks of one wide block', () => {
  for (const k of [1, 4, 12]) {
    it(`refuses live and dead IDs alike, and answers each of ${k} /24s of a /16 at most its budget and the breach`, async () => {
      await publishLive()
      const networks = Array.from({ length: k }, (_, j) =>
        Array.from({ length: 4 }, (_, a) => `10.${60 + k}.${j}.${a + 1}`),
      )
      const asks = mixedBurst(networks, 20)
      const o = await outcome(asks, await together(asks), (ip) => ip.replace(/\.\d+$/, ''))
      expect(o.unavailable).toBe(0)
      // 80 requests per network, 31 of them may be answered as misses: some are refused, the same
      // share of live and of dead requests (refused by order of admission, not by ID).
      expect(o.live.refused + o.dead.refused).toBeGreaterThan(0)
      const liveRate = o.live.refused / o.live.asked
      const deadRate = o.dead.refused / o.dead.asked
      expect(Math.abs(liveRate - deadRate)).toBeLessThan(0.1)
      expect(o.missesByNetwork.size).toBe(k)
      for (const misses of o.missesByNetwork.values()) {
        expect(misses).toBeLessThanOrEqual(NETWORK_BUDGET + 1)
      }
    })
  }

  it('refuses live and dead IDs alike from /48s of one /32, each at most its budget and the breach', async () => {
    await publishLive()
    const networks = Array.from({ length: 6 }, (_, j) =>
      Array.from({ length: 8 }, (_, s) => `2001:db8:${j + 1}:${s}::1`),
    )
    const asks = mixedBurst(networks, 10)
    const o = await outcome(asks, await together(asks), (ip) => ip.split(':')[2]!)
    expect(o.unavailable).toBe(0)
    expect(o.live.refused + o.dead.refused).toBeGreaterThan(0)
    const liveRate = o.live.refused / o.live.asked
    const deadRate = o.dead.refused / o.dead.asked
    expect(Math.abs(liveRate - deadRate)).toBeLessThan(0.1)
    for (const misses of o.missesByNetwork.values()) {
      expect(misses).toBeLessThanOrEqual(NETWORK_BUDGET + 1)
    }
  })

  it('counts every miss before answering it: the breach is in force when its answer is out', async () => {
    const vars = { RATE_LIMIT_PREFIX_MISSES: '19/3600' }
    const ips = Array.from({ length: 5 }, (_, a) => `10.90.1.${a + 1}`)
    const asks: Ask[] = ips.flatMap((ip, a) =>
      Array.from({ length: 4 }, (_, i) => [ip, deadId(a * 10 + i)] as Ask),
    )
    const statuses = (await together(asks, vars)).map((res) => res.status)
    // 20 misses: the budget and the breach, each answered as what it is.
    expect(statuses).toEqual(Array(20).fill(404))
    const next = await get('10.90.1.99', LIVE_IDS[0]!, vars)
    expect(next.status).toBe(429)
    expect(await next.text()).toMatch(/this network asked for exports that do not exist/)
  })
})

describe('a burst through several isolates', () => {
  it('answers each isolate at most the budget and the breach, and pays for all of them', async () => {
    const isolates = [createApp(), createApp()]
    const asks: Ask[] = Array.from({ length: 40 }, (_, i) => [`10.95.0.${1 + (i % 10)}`, deadId(i)])
    const statuses = await Promise.all(
      isolates.flatMap((isolate) =>
        asks.map(async ([ip, id]) => {
          const ctx = createExecutionContext()
          const request = new Request(`https://example.com/server-api?id=${id}`, {
            headers: { 'CF-Connecting-IP': ip },
          })
          const res = await isolate.fetch(request, { ...env, ...VARS }, ctx)
          await waitOnExecutionContext(ctx)
          await res.body?.cancel()
          return res.status
        }),
      ),
    )
    const answered = statuses.filter((status) => status === 404).length
    // Each isolate starts from an empty budget: at most twice the budget and the breach.
    expect(answered).toBeGreaterThan(NETWORK_BUDGET + 1)
    expect(answered).toBeLessThanOrEqual(2 * (NETWORK_BUDGET + 1))
    // A third isolate has counted none of them: its first stranger is admitted, and its miss,
    // counted before its answer, teaches it the penalty.
    expect((await get('10.95.0.99', deadId(500))).status).toBe(404)
    // Every miss was counted: the penalty lasts until they are paid for, at 30 an hour.
    const refused = await get('10.95.0.98', deadId(501))
    expect(refused.status).toBe(429)
    const { error } = await refused.json<{ error: { retryAfterSeconds: number } }>()
    expect(error.retryAfterSeconds).toBeGreaterThan((answered * 3600) / NETWORK_BUDGET - 60)
  })
})

describe('hits are never refused for concurrency or for neighbours', () => {
  it('answers a fresh address 60 hits at once, then 60 more: its whole short window, all 200', async () => {
    await publishLive()
    // The defaults: a network's burst room (its budget of 300 and the breach) exceeds a window.
    const defaults = { RATE_LIMIT_CLIENT_MISSES: '30/3600', RATE_LIMIT_PREFIX_MISSES: '300/3600' }
    for (let round = 0; round < 2; round++) {
      const asks: Ask[] = Array.from({ length: 60 }, (_, i) => ['10.91.0.7', LIVE_IDS[i % 5]!])
      const statuses = (await together(asks, defaults)).map((res) => res.status)
      expect(statuses).toEqual(Array(60).fill(200))
    }
  })

  it('serves a clean client beside hundreds of hits at once from other /64s of its /48 and other addresses of its /24', async () => {
    await publishLive()
    const server4 = '10.92.0.7'
    const server6 = '2001:db8:92:1::7'
    for (const ip of [server4, server6]) expect((await get(ip, LIVE_IDS[0]!)).status).toBe(200)
    const asks: Ask[] = []
    for (let i = 0; i < 300; i++)
      asks.push([`2001:db8:92:${(i + 16).toString(16)}::1`, LIVE_IDS[i % 5]!])
    for (let i = 0; i < 200; i++) asks.push([`10.92.0.${20 + (i % 100)}`, LIVE_IDS[i % 5]!])
    for (let i = 0; i < 10; i++) {
      asks.splice(i * 50, 0, [server4, LIVE_IDS[i % 5]!], [server6, LIVE_IDS[i % 5]!])
    }
    const responses = await together(asks)
    const servers = responses.filter((_, i) => [server4, server6].includes(asks[i]![0]))
    expect(servers.map((res) => res.status)).toEqual(Array(20).fill(200))
    expect(responses.filter((res) => res.status === 503)).toHaveLength(0)
  })

  it('serves a clean client beside floods of misses that penalize its network', async () => {
    await publishLive()
    const server = '10.93.0.7'
    expect((await get(server, LIVE_IDS[0]!)).status).toBe(200)
    for (let wave = 0; wave < 2; wave++) {
      const asks: Ask[] = Array.from({ length: 100 }, (_, i) => [
        `10.93.0.${20 + (i % 50)}`,
        deadId(wave * 100 + i),
      ])
      for (let i = 0; i < 10; i++) asks.splice(i * 11, 0, [server, LIVE_IDS[i % 5]!])
      const responses = await together(asks)
      const mine = responses.filter((_, i) => asks[i]![0] === server).map((res) => res.status)
      expect(mine).toEqual(Array(10).fill(200))
      for (const res of responses) await res.body?.cancel()
    }
    // A few more misses, one at a time, spend the rest of the budget: the network is penalized.
    for (let i = 0; i < 5; i++) await (await get(`10.93.0.${80 + i}`, deadId(900 + i))).text()
    // Its clean client is still served, a stranger is not.
    expect((await get(server, LIVE_IDS[1]!)).status).toBe(200)
    const stranger = await get('10.93.0.200', LIVE_IDS[1]!)
    expect(stranger.status).toBe(429)
    expect(await stranger.text()).toMatch(/from this network asked for exports that do not exist/)
  })
})

describe("the plugins' own fetch patterns, with the default budgets", () => {
  const DEFAULTS = { RATE_LIMIT_CLIENT_MISSES: '30/3600', RATE_LIMIT_PREFIX_MISSES: '300/3600' }

  it("answers a chunk load's whole short window of blocks at once from a new server", async () => {
    await publishLive()
    const asks: Ask[] = Array.from({ length: 120 }, (_, i) => ['10.96.0.7', LIVE_IDS[i % 5]!])
    const statuses = (await together(asks, DEFAULTS)).map((res) => res.status)
    expect(statuses).toEqual(Array(120).fill(200))
  })

  it('answers five new servers of one /24 restarting together, each loading 60 models at once', async () => {
    await publishLive()
    const asks: Ask[] = []
    for (let i = 0; i < 60; i++) {
      for (let server = 1; server <= 5; server++) asks.push([`10.97.0.${server}`, LIVE_IDS[i % 5]!])
    }
    const statuses = (await together(asks, DEFAULTS)).map((res) => res.status)
    expect(statuses).toEqual(Array(300).fill(200))
  })
})

describe('penalties outlive a restart', () => {
  /** Ends the object's instance at once: what it held in memory only is gone. */
  async function restart(name: string): Promise<void> {
    const stub = env.RATE_LIMITER.getByName(name)
    await runInDurableObject(stub, (_, state) => state.abort('restarted')).catch(() => {})
  }

  it("keeps a client's penalty and its network's when their objects restart right after the breach", async () => {
    await publishLive()
    const ip = '10.94.0.9'
    const vars = { RATE_LIMIT_CLIENT_MISSES: '2/3600', RATE_LIMIT_PREFIX_MISSES: '5/3600' }
    for (let i = 0; i < 3; i++) expect((await get(ip, deadId(i), vars)).status).toBe(404)
    await restart(ip)
    // Other window settings: this isolate's memory of the refusal does not answer for them.
    const other = { ...vars, RATE_LIMIT_SHORT: '119/60' }
    const refused = await get(ip, LIVE_IDS[0]!, other)
    expect(refused.status).toBe(429)
    expect(await refused.text()).toMatch(/this address asked for exports that do not exist/)
    for (let i = 3; i < 6; i++) expect((await get('10.94.0.10', deadId(i), vars)).status).toBe(404)
    await restart('10.94.0.0/24')
    const network = await runInDurableObject(
      env.RATE_LIMITER.getByName('10.94.0.0/24'),
      (_, state) => state.storage.kv.get<{ penaltyUntil: number }>('prefix'),
    )
    expect(network?.penaltyUntil).toBeGreaterThan(Date.now())
  })
})
