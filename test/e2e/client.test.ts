/**
 * The typed client against the running worker (`npm start`), imported by its package name as a
 * consumer would. The service runs with a short window of 3 requests per 6 s, so that a 429 is
 * reached in three requests and waited out in seconds; each test has its own client address. The
 * window is long enough that a busy machine still sends a fourth request within it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ExportHttpError,
  getExport,
  InvalidIdError,
  RateLimitedError,
  type FetchLike,
} from 'export-retrieval-service/client'
import { publishExport } from './editor-publish'
import { startLocalService, type LocalService } from './local-service'

const SHORT_LIMIT = 3
const SHORT_WINDOW_SECONDS = 6
/** A Retry-After no test waits out. */
const LONG_WAIT_SECONDS = 60
const DOC = JSON.stringify({
  content: {
    project_id: 'gate-project',
    // Data no plugin runs: the placeholders are substituted there as anywhere else.
    meta: {
      Tags: ['[MODELSERVERTAG]_root', '[MODELSERVERTAG]_0'],
      cmd: 'kill @e[tag=[MODELSERVERTAG]_0]',
    },
  },
})

let service: LocalService
let id: string
let ipCounter = 0

beforeAll(async () => {
  service = await startLocalService({
    RATE_LIMIT_SHORT: `${SHORT_LIMIT}/${SHORT_WINDOW_SECONDS}`,
  })
  id = (await publishExport(service, DOC)).id
})
afterAll(() => service?.stop())

/** A fetch that presents its requests as from a client address of their own, and counts them. */
function clientFetch(): FetchLike & { calls: number } {
  ipCounter++
  const ip = `192.0.2.${ipCounter}`
  const counted = Object.assign(
    (url: string, init: Parameters<FetchLike>[1]) => {
      counted.calls++
      return fetch(url, { ...init, headers: { ...init.headers, 'CF-Connecting-IP': ip } })
    },
    { calls: 0 },
  )
  return counted
}

/** Spends a client's short window. */
async function exhaust(send: FetchLike): Promise<void> {
  for (let i = 0; i < SHORT_LIMIT; i++) {
    await (
      await send(`${service.url}/server-api?id=123456`, {
        method: 'GET',
        headers: {},
        credentials: 'omit',
      })
    ).arrayBuffer()
  }
}

describe('getExport against the running worker', () => {
  it('returns the content with the tag substituted, its lifetime and the rate-limit state', async () => {
    const result = await getExport(id, {
      baseUrl: service.url,
      tag: 'gate_1',
      fetch: clientFetch(),
    })
    expect(result.content).toEqual({
      project_id: 'gate-project',
      meta: { Tags: ['gate_1_root', 'gate_1_0'], cmd: 'kill @e[tag=gate_1_0]' },
    })
    expect(result.expiresInSeconds).toBeGreaterThan(500)
    expect(result.expiresInSeconds).toBeLessThanOrEqual(600)
    expect(result.waitedSeconds).toBe(0)
    expect(result.rateLimit).toMatchObject({ limit: SHORT_LIMIT, remaining: SHORT_LIMIT - 1 })
    expect(result.rateLimit?.windows).toEqual([
      {
        name: 'short',
        remaining: SHORT_LIMIT - 1,
        resetSeconds: SHORT_WINDOW_SECONDS,
        limit: SHORT_LIMIT,
        periodSeconds: SHORT_WINDOW_SECONDS,
      },
      { name: 'long', remaining: 1199, resetSeconds: 3600, limit: 1200, periodSeconds: 3600 },
    ])
  })

  it("sends a tag of the copy's own when none is given, and none (the service default) for null", async () => {
    const own = await getExport(id, { baseUrl: service.url, fetch: clientFetch() })
    expect(own.tag).toMatch(/^copy_[0-9a-f]{24}$/)
    expect((own.content.meta as { Tags: string[] }).Tags).toEqual([
      `${own.tag}_root`,
      `${own.tag}_0`,
    ])
    const shared = await getExport(id, { baseUrl: service.url, tag: null, fetch: clientFetch() })
    expect(shared.tag).toBeNull()
    expect((shared.content.meta as { Tags: string[] }).Tags).toEqual(['model_root', 'model_0'])
  })

  it.each(['12345', '1234567', '12a456', ' 123456', '１２３４５６', ''])(
    'refuses the ID %j without sending a request',
    async (bad) => {
      const send = clientFetch()
      const failure = getExport(bad, { baseUrl: service.url, fetch: send })
      await expect(failure).rejects.toBeInstanceOf(InvalidIdError)
      await expect(failure).rejects.toMatchObject({ id: bad })
      expect(send.calls).toBe(0)
    },
  )

  it('throws ExportHttpError with the code of an unknown ID', async () => {
    const failure = await getExport('123456', { baseUrl: service.url, fetch: clientFetch() }).catch(
      (e: unknown) => e,
    )
    expect(failure).toBeInstanceOf(ExportHttpError)
    expect(failure).not.toBeInstanceOf(RateLimitedError)
    expect(failure).toMatchObject({ status: 404, code: 'not_found', retryAfterSeconds: null })
    expect((failure as ExportHttpError).rateLimit?.remaining).toBe(SHORT_LIMIT - 1)
  })

  it('throws RateLimitedError with the wait when it may not wait that long', async () => {
    const send = clientFetch()
    await exhaust(send)
    const failure = await getExport(id, {
      baseUrl: service.url,
      fetch: send,
      maxWaitSeconds: 0,
    }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(RateLimitedError)
    const limited = failure as RateLimitedError
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' })
    expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(SHORT_WINDOW_SECONDS)
    expect(limited.rateLimit?.remaining).toBe(0)
    expect(send.calls).toBe(SHORT_LIMIT + 1)
  })

  it('waits out a 429 for as long as Retry-After says, then returns the export', async () => {
    const send = clientFetch()
    await exhaust(send)
    const started = Date.now()
    const result = await getExport(id, { baseUrl: service.url, fetch: send, maxWaitSeconds: 10 })
    expect(result.content.project_id).toBe('gate-project')
    expect(result.waitedSeconds).toBeGreaterThanOrEqual(1)
    expect(Date.now() - started).toBeGreaterThanOrEqual(result.waitedSeconds * 1000 - 50)
  })

  it('stops waiting as soon as the signal aborts', async () => {
    const send = clientFetch()
    await exhaust(send)
    // The service's 429, told to wait a minute: only the abort can end the wait early.
    const longWait: FetchLike = async (url, init) => {
      const res = await send(url, init)
      if (res.status !== 429) return res
      const headers = new Headers(res.headers)
      headers.set('Retry-After', String(LONG_WAIT_SECONDS))
      return new Response(res.body, { status: res.status, headers })
    }
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort(new Error('user cancelled')), 200)
    await expect(
      getExport(id, {
        baseUrl: service.url,
        fetch: longWait,
        maxWaitSeconds: LONG_WAIT_SECONDS * 2,
        signal: controller.signal,
      }),
    ).rejects.toThrow('user cancelled')
    expect(send.calls).toBe(SHORT_LIMIT + 1)
    // Well before the minute: a guard that the wait was cut short, not a speed bound.
    expect(Date.now() - started).toBeLessThan((LONG_WAIT_SECONDS * 1000) / 2)
  })
})
