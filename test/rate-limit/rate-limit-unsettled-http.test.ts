/**
 * A 503 that only an ID missing from KV gets (its shard did not answer the grace-copy lookup) is
 * counted as a miss (docs/rate-limits.md#misses): a harvester learns nothing from a slow shard
 * that its miss budget does not pay for.
 */
import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { allocatorWith, callWithEnv, storeExport } from '../support/helpers'
import { SMALL_MISS_BUDGETS } from '../support/miss-limit'
import { errorOf } from '../support/publishing'

const LIVE = '123456'
const DOC = '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}'
/** The shard every lookup asks, down: each ID KV does not hold is answered 503. */
const SHARD_DOWN = allocatorWith({ lookup: () => Promise.reject(new Error('DO unreachable')) })
/** A network budget the client's own misses never reach: the client's budget decides. */
const VARS = {
  ...SMALL_MISS_BUDGETS,
  RATE_LIMIT_PREFIX_MISSES: '100/600',
  ID_ALLOCATOR: SHARD_DOWN,
}

function get(ip: string, id: string): Promise<Response> {
  return callWithEnv(VARS, `/server-api?id=${id}`, { headers: { 'CF-Connecting-IP': ip } })
}

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

describe('a shard that does not answer for IDs KV does not hold', () => {
  it('counts each such 503 as a miss: past the budget the client is refused, live IDs too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(LIVE, DOC, { ttlSeconds: 36_000 })
    const ip = '198.51.20.1'
    // The client's budget is 3 misses: the fourth is the breach that starts its penalty.
    for (const guess of ['900001', '900002', '900003', '900004']) {
      const res = await get(ip, guess)
      expect(res.status).toBe(503)
      expect(res.headers.get('Retry-After')).toBe('1')
      expect((await errorOf(res)).code).toBe('unavailable')
    }
    const refused = await get(ip, LIVE)
    expect(refused.status).toBe(429)
    expect((await errorOf(refused)).code).toBe('rate_limited')
  })

  it('serves a live ID KV holds without asking the shard, and counts nothing for it', async () => {
    await storeExport(LIVE, DOC, { ttlSeconds: 36_000 })
    const ip = '198.51.20.2'
    for (let i = 0; i < 10; i++) expect((await get(ip, LIVE)).status).toBe(200)
  })
})
