/**
 * Misses that arrive together (docs/rate-limits.md#bursts): however many requests the strangers
 * and guessers of a network have in flight at once, at most its budget and the breach are
 * answered as misses in a window (per isolate); the rest are refused before the route answers,
 * so they tell nothing about their IDs. One client's burst is held by its windows alone, every
 * miss counted before its answer, and its penalty lasts until they are paid for. Through the
 * real Worker (`exports.default.fetch`) with the settings of wrangler.toml: a client may miss 30
 * times an hour, a network 300.
 */
import { reset } from 'cloudflare:test'
import { exports } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BASE, callWithEnv, storeExport, WAIT_FOR } from '../support/helpers'

const CLIENT_BUDGET = 30
const PREFIX_BUDGET = 300
const LIVE = '123456'
const DOC = '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}'

/** A GET from `ip`, sent through the Worker's own fetch. */
function get(ip: string, id: string): Promise<Response> {
  return exports.default.fetch(
    new Request(`${BASE}/server-api?id=${id}`, { headers: { 'CF-Connecting-IP': ip } }),
  )
}

/** Sends all of `requests` at once: every one is in flight before the first is answered. */
async function together(requests: [ip: string, id: string][]): Promise<Response[]> {
  return Promise.all(requests.map(([ip, id]) => get(ip, id)))
}

/** The statuses of `responses`, counted: `{ 404: 31, 429: 89 }`. */
function tally(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const res of responses) counts[res.status] = (counts[res.status] ?? 0) + 1
  return counts
}

/** A six-digit ID nobody published. */
function unknownId(i: number): string {
  return String(900_000 + i)
}

// Hundreds of objects to reset after the bursts.
afterEach(async () => {
  await reset()
}, 120_000)

describe('misses in flight at once', () => {
  it('answers one address its 120 misses at once, and penalizes it until they are paid for', async () => {
    const ip = '198.51.40.1'
    const responses = await together(
      Array.from({ length: 120 }, (_, i) => [ip, unknownId(i)] as [string, string]),
    )
    // Its window holds 120 at once; the network's room (301) does not bind one client.
    expect(tally(responses)).toEqual({ 404: 120 })
    // Each miss was counted before its answer: the penalty is in force, as long as 120 misses
    // at 30 an hour take to pay for (4 hours from the window's start).
    const after = await get(ip, unknownId(999))
    expect(after.status).toBe(429)
    const body = await after.json<{ error: { message: string; retryAfterSeconds: number } }>()
    expect(body.error.message).toMatch(/this address asked for exports that do not exist/)
    expect(body.error.retryAfterSeconds).toBeGreaterThan(4 * 3600 - 60)
    expect(body.error.retryAfterSeconds).toBeLessThanOrEqual(4 * 3600)
  })

  it('answers the hits of a burst as hits, and counts its misses before their answers', async () => {
    await storeExport(LIVE, DOC)
    const ip = '198.51.41.1'
    const asks = Array.from(
      { length: 90 },
      (_, i) => [ip, i % 3 === 0 ? LIVE : unknownId(i)] as [string, string],
    )
    const responses = await together(asks)
    // No refusal: none could depend on which IDs are live.
    expect(tally(responses)).toEqual({ 200: 30, 404: 60 })
    const after = await get(ip, LIVE)
    expect(after.status).toBe(429)
    const body = await after.json<{ error: { retryAfterSeconds: number } }>()
    // 60 misses at 30 an hour: 2 hours from the window's start.
    expect(body.error.retryAfterSeconds).toBeGreaterThan(2 * 3600 - 60)
  })

  it('answers the addresses of one /24 at most the network budget and the breach', async () => {
    // 12 addresses, 40 requests each, all at once: each address alone could get 31 misses.
    const requests: [string, string][] = []
    for (let a = 1; a <= 12; a++) {
      for (let i = 0; i < 40; i++) requests.push([`198.51.42.${a}`, unknownId(a * 100 + i)])
    }
    const counts = tally(await together(requests))
    expect(counts[404]).toBe(PREFIX_BUDGET + 1)
    expect(counts[429]).toBe(requests.length - PREFIX_BUDGET - 1)
    const after = await get('198.51.42.200', LIVE)
    expect(after.status).toBe(429)
    expect(await after.text()).toMatch(/this network/)
  })

  it('answers the /64s of one /48 at most the network budget and the breach, 400 invalid_id included', async () => {
    const requests: [string, string][] = Array.from({ length: 500 }, (_, i) => [
      `2001:db8:42:${i.toString(16)}::1`,
      i % 2 === 0 ? unknownId(i) : 'abc',
    ])
    const counts = tally(await together(requests))
    expect((counts[404] ?? 0) + (counts[400] ?? 0)).toBe(PREFIX_BUDGET + 1)
    expect(counts[429]).toBe(500 - PREFIX_BUDGET - 1)
  })

  it('lets a client that waits for its answers use its budget one miss at a time', async () => {
    const ip = '198.51.43.1'
    const vars = { RATE_LIMIT_CLIENT_MISSES: '5/600' }
    const statuses = []
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (
          await callWithEnv(vars, `/server-api?id=${unknownId(i)}`, {
            headers: { 'CF-Connecting-IP': ip },
          })
        ).status,
      )
    }
    // The budget, the breach, then the penalty: sequential misses meet no burst bound.
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 429])
  })
})
