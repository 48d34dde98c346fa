import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  ExportHttpError,
  getExport,
  RateLimitedError,
  type DeprecationNotice,
  type FetchLike,
} from '../../src/client'
import { BASE, callWithEnv, storeExport } from '../support/helpers'

const DOC = '{"content":{"project_id":"p-1","Tags":["[MODELSERVERTAG]_root"]}}'

/** The client's requests, sent to the Worker with a short limit, from one client address. */
const toWorker: FetchLike = (url, init) =>
  callWithEnv({ RATE_LIMIT_SHORT: '1/60' }, url.slice(BASE.length), {
    ...init,
    headers: { ...init.headers, 'CF-Connecting-IP': '192.0.2.77' },
  })

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

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

const DOCS = 'https://models.example.com/docs/api#compatibility'
let ip = 100
/** The Worker of a deployment that deprecates the use of `tag` (sunset 2027-07-05). */
const toDeprecatingWorker: FetchLike = (url, init) =>
  callWithEnv(
    {
      DEPRECATIONS: JSON.stringify([
        { use: '/server-api?tag', deprecated: '2027-01-04', sunset: '2027-07-05', link: DOCS },
      ]),
    },
    url.slice(BASE.length),
    { ...init, headers: { ...init.headers, 'CF-Connecting-IP': `192.0.2.${++ip}` } },
  )
describe('the typed client and a deprecation the service announces', () => {
  it('tells its listener once, however many answers carry it, and returns every export', async () => {
    await storeExport('241235', DOC)
    const heard: DeprecationNotice[] = []
    const onDeprecation = (notice: DeprecationNotice) => void heard.push(notice)
    const options = { baseUrl: BASE, fetch: toDeprecatingWorker, onDeprecation }
    for (const tag of ['a', 'b', 'c']) {
      const result = await getExport('241235', { ...options, tag })
      expect(result.content).toEqual({ project_id: 'p-1', Tags: [`${tag}_root`] })
      expect(result.deprecation).toMatchObject({ link: DOCS })
    }
    expect(heard).toEqual([
      {
        deprecatedAt: new Date('2027-01-04T00:00:00Z'),
        sunsetAt: new Date('2027-07-05T00:00:00Z'),
        link: DOCS,
        url: `${BASE}/server-api?id=241235&tag=a`,
        message:
          'export-retrieval-service: /server-api as called is deprecated since 2027-01-04T00:00:00.000Z and may stop answering after 2027-07-05T00:00:00.000Z; see ' +
          DOCS,
      },
    ])
  })

  it('hears it on an error answer too, and still throws the error the status calls for', async () => {
    const onDeprecation = vi.fn()
    const missing = getExport('999999', {
      baseUrl: BASE,
      tag: 'x',
      fetch: toDeprecatingWorker,
      onDeprecation,
    })
    await expect(missing).rejects.toBeInstanceOf(ExportHttpError)
    await expect(missing).rejects.toMatchObject({ status: 404, code: 'not_found' })
    expect(onDeprecation).toHaveBeenCalledOnce()
  })

  it('without a listener, warns once on the console', async () => {
    await storeExport('241235', DOC)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (let i = 0; i < 3; i++) {
      await getExport('241235', { baseUrl: BASE, tag: 'x', fetch: toDeprecatingWorker })
    }
    expect(warn).toHaveBeenCalledOnce()
    expect(warn.mock.calls[0]![0]).toMatch(/^export-retrieval-service: \/server-api .* deprecated/)
  })

  it('hears nothing from a request that uses nothing deprecated', async () => {
    await storeExport('241235', DOC)
    const onDeprecation = vi.fn()
    // No tag at all (`null`): without one the client would send a tag of the copy's own.
    const options = { baseUrl: BASE, tag: null, fetch: toDeprecatingWorker, onDeprecation }
    const result = await getExport('241235', options)
    expect(result.deprecation).toBeNull()
    expect(onDeprecation).not.toHaveBeenCalled()
  })

  it('does not fail the request when the listener throws', async () => {
    await storeExport('241235', DOC)
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const onDeprecation = () => {
      throw new Error('listener broke')
    }
    const options = { baseUrl: BASE, tag: 'x', fetch: toDeprecatingWorker, onDeprecation }
    await expect(getExport('241235', options)).resolves.toMatchObject({
      deprecation: { link: DOCS },
    })
  })
})
