import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { getExport, RateLimitedError, type FetchLike } from '../../src/client'
import { BASE, callWithEnv, storeExport } from '../support/helpers'

const DOC = '{"content":{"project_id":"p-1","Tags":["[MODELSERVERTAG]_root"]}}'

/** The client's requests, sent to the Worker with a short limit, from one client address. */
const toWorker: FetchLike = (url, init) =>
  callWithEnv({ RATE_LIMIT_SHORT: '1/60' }, url.slice(BASE.length), {
    ...init,
    headers: { ...init.headers, 'CF-Connecting-IP': '192.0.2.77' },
  })

afterEach(() => reset())

describe('the typed client inside the Workers runtime', () => {
  it('fetches an export, then reports the 429 that follows', async () => {
    await storeExport('241235', DOC)
    const result = await getExport('241235', { baseUrl: BASE, tag: 'w', fetch: toWorker })
    expect(result.content).toEqual({ project_id: 'p-1', Tags: ['w_root'] })
    expect(result.rateLimit).toMatchObject({ limit: 1, remaining: 0 })

    const refused = getExport('241235', { baseUrl: BASE, fetch: toWorker, maxWaitSeconds: 0 })
    await expect(refused).rejects.toBeInstanceOf(RateLimitedError)
    await expect(refused).rejects.toMatchObject({ status: 429, code: 'rate_limited' })
  })
})
