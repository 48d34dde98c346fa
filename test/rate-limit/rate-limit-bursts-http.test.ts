/**
 * Misses that arrive together (docs/rate-limits.md#bursts): however many requests a client or a
 * network has in flight at once, at most its budget and the breach are answered as misses in a
 * window; the rest are refused before the route answers, so they tell nothing about their IDs.
 * Through the real Worker (`exports.default.fetch`) with the settings of wrangler.toml: a client
 * may miss 30 times an hour, a network 300.
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

afterEach(async () => {
  await reset()
})

describe('misses in flight at once', () => {
  it('answers one address at most its budget and the breach out of 120 at once', async () => {
    const ip = '198.51.40.1'
    const responses = await together(
      Array.from({ length: 120 }, (_, i) => [ip, unknownId(i)] as [string, string]),
    )
    const counts = tally(responses)
    expect(counts[404]).toBe(CLIENT_BUDGET + 1)
    expect(counts[429]).toBe(120 - CLIENT_BUDGET - 1)
    const refused = responses.find((res) => res.status === 429)!
    const body = await refused.json<{ error: { message: string; retryAfterSeconds: number } }>()
    expect(body.error.message).toMatch(/in flight at once/)
    expect(body.error.retryAfterSeconds).toBeGreaterThan(0)
    // Once the misses' reports are in (after the answers), the breach has started the penalty.
    await vi.waitFor(async () => {
      const after = await get(ip, unknownId(999))
      expect(after.status).toBe(429)
      expect(await after.text()).toMatch(/this address asked for exports that do not exist/)
    }, WAIT_FOR)
  })

  it('answers the hits of a burst and holds its misses to the budget', async () => {
    await storeExport(LIVE, DOC)
    const ip = '198.51.41.1'
    // Every third request is a hit: a hit holds its reservation as a miss would.
    const responses = await together(
      Array.from(
        { length: 90 },
        (_, i) => [ip, i % 3 === 0 ? LIVE : unknownId(i)] as [string, string],
      ),
    )
    const counts = tally(responses)
    expect((counts[200] ?? 0) + (counts[404] ?? 0)).toBe(CLIENT_BUDGET + 1)
    expect(counts[404]!).toBeLessThanOrEqual(CLIENT_BUDGET + 1)
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
    // The budget, the breach, then the penalty: as before bursts were bounded.
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 429])
  })
})
