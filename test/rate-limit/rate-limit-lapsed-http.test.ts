/**
 * A network's budget does not depend on whether its objects' cleanup ran
 * (docs/rate-limits.md#durability): a network whose object still holds a record of a window long
 * past, with the alarm that would delete it past due and not run (alarms are retried a few
 * times and then dropped, and may run late), gets the same misses answered in an hour of bursts
 * as a network never seen. Through the Worker's fetch, with the settings of wrangler.toml, on a
 * clock moved by hand: between bursts the alarms due run, as workerd runs them, and then every
 * object is evicted, as after 10 s without a request.
 */
import {
  createExecutionContext,
  evictAllDurableObjects,
  reset,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app'
import { clientAddress } from '../../src/rate-limit/testing'

const T0 = Date.UTC(2031, 0, 1)
const DAYS = 86_400_000
/** A network's budget is 300 misses an hour; each burst stays under it. */
const BURST = 200
const ADDRESSES = 64
/** Bursts 20 minutes apart: three in an hour. */
const BURST_GAP_MS = 20 * 60_000

/** What a new network's bursts get answered in its first hour. */
const NEW_NETWORK = [200, 101, 1]

type App = ReturnType<typeof createApp>

function at(ms: number): void {
  vi.setSystemTime(ms)
}

/** 64 clients of `network` (`a.b.c` for a /24, `a:b:c` for a /48). */
function addressesOf(network: string): string[] {
  return Array.from({ length: ADDRESSES }, (_, i) =>
    network.includes(':') ? `${network}:${(i + 1).toString(16)}::1` : `${network}.${i + 1}`,
  )
}

/** A six-digit ID nobody published. */
function deadId(i: number): string {
  return String(700_000 + i)
}

/** `size` misses at once from the network's clients in turn: how many were answered `404`. */
async function burst(app: App, network: string, size: number, seed: number): Promise<number> {
  const addresses = addressesOf(network)
  const statuses = await Promise.all(
    Array.from({ length: size }, async (_, i) => {
      const ctx = createExecutionContext()
      const request = new Request(`https://example.com/server-api?id=${deadId(seed + i)}`, {
        headers: { 'CF-Connecting-IP': addresses[i % ADDRESSES]! },
      })
      const res = await app.fetch(request, env, ctx)
      await waitOnExecutionContext(ctx)
      await res.body?.cancel()
      return res.status
    }),
  )
  for (const status of statuses) expect([404, 429]).toContain(status)
  return statuses.filter((status) => status === 404).length
}

/** The network's own object, then its clients'. */
function objectsOf(network: string) {
  const addresses = addressesOf(network)
  const names = [clientAddress(addresses[0]!).prefix, ...addresses.map((a) => clientAddress(a).key)]
  return names.map((name) => env.RATE_LIMITER.getByName(name))
}

/** When each of the network's objects' alarm is due (null: none). */
function alarmsOf(network: string): Promise<(number | null)[]> {
  return Promise.all(
    objectsOf(network).map((stub) =>
      runInDurableObject(stub, (_, state) => state.storage.getAlarm()),
    ),
  )
}

/**
 * What became of the alarms of the network's records of long ago: `lost` (retried, then dropped
 * by the runtime) or `late` (still past due, and run by no one within the hour).
 */
type Stale = 'lost' | 'late'

/** Runs every alarm of the network's objects due by the clock, but those in `late`. */
async function runDueAlarms(network: string, late: ReadonlySet<number>): Promise<void> {
  for (const stub of objectsOf(network)) {
    const alarm = await runInDurableObject(stub, (_, state) => state.storage.getAlarm())
    if (alarm !== null && alarm <= Date.now() && !late.has(alarm)) {
      await runDurableObjectAlarm(stub)
    }
  }
}

/**
 * An hour of bursts from `network` from `start`: three bursts 20 minutes apart, each followed,
 * 10 s later, by the alarms then due (but those in `late`) and an eviction. The misses answered
 * in each burst.
 */
async function hour(
  app: App,
  network: string,
  start: number,
  late: ReadonlySet<number> = new Set(),
): Promise<number[]> {
  const answered: number[] = []
  for (let b = 0; b < 3; b++) {
    at(start + b * BURST_GAP_MS)
    answered.push(await burst(app, network, BURST, 1000 * b))
    at(start + b * BURST_GAP_MS + 10_000)
    await runDueAlarms(network, late)
    await evictAllDurableObjects()
  }
  return answered
}

/**
 * Leaves `network` as days of quiet after `misses` misses at once leave it: its records lapsed
 * and still stored, their alarm past due and not run (`stale`), and `app`'s memory of it as old.
 * Answers the alarms that must not run within the next hour.
 */
async function lapsed(app: App, network: string, misses: number, stale: Stale) {
  at(T0)
  await burst(app, network, misses, 5000)
  at(T0 + 3 * DAYS)
  const alarms = await alarmsOf(network)
  // The network's object holds its record of long ago, and an alarm that has not run.
  expect(alarms[0]).not.toBeNull()
  expect(alarms[0]).toBeLessThan(Date.now())
  if (stale === 'lost') {
    for (const stub of objectsOf(network)) {
      await runInDurableObject(stub, (_, state) => state.storage.deleteAlarm())
    }
  }
  await evictAllDurableObjects()
  return new Set(alarms.filter((alarm): alarm is number => alarm !== null))
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
}, 120_000)

describe("a network's budget, whatever became of its cleanup", () => {
  it('answers a new network its budget and the breach in an hour of bursts under it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    // 200 at once, then the room left (101: the budget and the breach); the penalty (15 min)
    // ends before the window does, so the third burst's first miss is a breach again (one at a
    // time once the budget is spent), and the rest wait for its answer.
    expect(await hour(createApp(), '10.120.1', T0 + 3 * DAYS)).toEqual(NEW_NETWORK)
  })

  const cases: { what: string; network: string; misses: number; stale: Stale }[] = [
    { what: 'a count long past, its alarm lost', network: '10.120.2', misses: 100, stale: 'lost' },
    { what: 'a count long past, its alarm late', network: '10.120.3', misses: 100, stale: 'late' },
    {
      what: 'a penalty long past, its alarm lost',
      network: '10.120.4',
      misses: 320,
      stale: 'lost',
    },
    {
      what: 'a penalty long past, its alarm late',
      network: '10.120.5',
      misses: 320,
      stale: 'late',
    },
    {
      what: 'a /48 with a penalty long past, its alarm lost',
      network: '2001:db8:126',
      misses: 320,
      stale: 'lost',
    },
  ]
  for (const { what, network, misses, stale } of cases) {
    it(`answers a network holding ${what} as a new one, through the isolate that knew it`, async () => {
      vi.useFakeTimers({ toFake: ['Date'] })
      const app = createApp()
      const late = await lapsed(app, network, misses, stale)
      expect(await hour(app, network, T0 + 3 * DAYS, late)).toEqual(NEW_NETWORK)
    })
  }
})
