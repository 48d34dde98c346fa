/**
 * The typed client against a fake fetch: the bodies and headers the real service never sends
 * but infrastructure and other servers do (docs/api.md#errors), the URL it builds, and its waits,
 * on fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_SECONDS,
  ExportHttpError,
  getExport,
  InvalidResponseError,
  MAX_ERROR_BODY_CHARS,
  RateLimitedError,
  ResponseTooLargeError,
  type ExportRequestInit,
} from 'export-retrieval-service/client'

const BASE = 'https://models.example'
const EXPORT = '{"content":{"project_id":"p"}}'

/** A fetch that answers with `responses` in turn and records what it was asked. */
function fakeFetch(...responses: (() => Response)[]) {
  const requests: { url: string; init: ExportRequestInit }[] = []
  const send = vi.fn(async (url: string, init: ExportRequestInit) => {
    requests.push({ url, init })
    const next = responses.shift()
    if (!next) throw new Error('no more responses')
    return next()
  })
  return Object.assign(send, { requests })
}

function answer(status: number, body: string, headers: Record<string, string> = {}) {
  return () => new Response(status === 204 ? null : body, { status, headers })
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  )
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the request', () => {
  it('is a simple GET with the ID and tag, credentials omitted, under the base path', async () => {
    const send = fakeFetch(answer(200, EXPORT))
    await getExport('012345', { baseUrl: `${BASE}/api`, tag: 'a b&c', fetch: send })
    expect(send.requests).toEqual([
      {
        url: `${BASE}/api/server-api?id=012345&tag=a+b%26c`,
        init: {
          method: 'GET',
          headers: { Accept: 'application/json' },
          credentials: 'omit',
          signal: expect.any(AbortSignal),
        },
      },
    ])
  })

  it('leaves the tag out when told to (null), so the service default applies', async () => {
    const send = fakeFetch(answer(200, EXPORT))
    await getExport('123456', { baseUrl: new URL(`${BASE}/`), tag: null, fetch: send })
    expect(send.requests[0]?.url).toBe(`${BASE}/server-api?id=123456`)
  })

  it('sends a tag unique to the copy when none is given', async () => {
    const send = fakeFetch(answer(200, EXPORT), answer(200, EXPORT))
    const first = await getExport('123456', { baseUrl: BASE, fetch: send })
    const second = await getExport('123456', { baseUrl: BASE, fetch: send })
    expect(first.tag).toMatch(/^copy_[0-9a-f]{24}$/)
    expect(second.tag).toMatch(/^copy_[0-9a-f]{24}$/)
    expect(second.tag).not.toBe(first.tag)
    expect(send.requests.map((request) => request.url)).toEqual([
      `${BASE}/server-api?id=123456&tag=${first.tag}`,
      `${BASE}/server-api?id=123456&tag=${second.tag}`,
    ])
  })
})

describe('error bodies', () => {
  it('reads an error given as a string', async () => {
    const send = fakeFetch(answer(404, '{"error":"Not found"}'))
    const error = await failureOf(getExport('123456', { baseUrl: BASE, fetch: send }))
    expect(error).toBeInstanceOf(ExportHttpError)
    expect(error).toMatchObject({ status: 404, code: null, message: 'HTTP 404: Not found' })
  })

  it('reads the string form with its code and retry delay beside it, as the service sends', async () => {
    const body = '{"error":"Storage is unavailable.","code":"unavailable","retryAfterSeconds":7}'
    const error = await failureOf(
      getExport('123456', {
        baseUrl: BASE,
        fetch: fakeFetch(answer(503, body)),
        maxWaitSeconds: 0,
      }),
    )
    expect(error).toBeInstanceOf(ExportHttpError)
    expect(error).toMatchObject({
      status: 503,
      code: 'unavailable',
      retryAfterSeconds: 7,
      message: 'HTTP 503: Storage is unavailable.',
    })
  })

  it('reads an error given as an object', async () => {
    const body = '{"error":{"code":"expired","message":"It expired.","extra":1}}'
    const error = await failureOf(
      getExport('123456', { baseUrl: BASE, fetch: fakeFetch(answer(410, body)) }),
    )
    expect(error).toMatchObject({
      status: 410,
      code: 'expired',
      message: 'HTTP 410: It expired.',
      body,
    })
  })

  it('keeps an HTML 502 from a proxy as text, and says it is not a JSON error', async () => {
    const html = `<html><body><h1>502 Bad Gateway</h1>${'x'.repeat(10_000)}</body></html>`
    const send = fakeFetch(answer(502, html, { 'Content-Type': 'text/html' }))
    const error = (await failureOf(
      getExport('123456', { baseUrl: BASE, fetch: send }),
    )) as ExportHttpError
    expect(error).toBeInstanceOf(ExportHttpError)
    expect(error).toMatchObject({
      status: 502,
      code: null,
      retryAfterSeconds: null,
      rateLimit: null,
    })
    expect(error.message).toBe('HTTP 502: the body is not a JSON error.')
    expect(error.body.startsWith('<html><body><h1>502 Bad Gateway</h1>')).toBe(true)
    expect(error.body.length).toBe(MAX_ERROR_BODY_CHARS + 1)
  })

  it('reports an empty body as empty', async () => {
    const send = fakeFetch(answer(500, ''))
    const error = await failureOf(getExport('123456', { baseUrl: BASE, fetch: send }))
    expect(error).toMatchObject({ status: 500, body: '', message: 'HTTP 500: the body is empty.' })
  })

  it.each(['null', '[1]', '{"error":42}', '{"message":"x"}', '{"error":{"code":7}}'])(
    'copes with the JSON body %s',
    async (body) => {
      const error = await failureOf(
        getExport('123456', { baseUrl: BASE, fetch: fakeFetch(answer(400, body)) }),
      )
      expect(error).toMatchObject({
        status: 400,
        code: null,
        message: 'HTTP 400: the body is not a JSON error.',
      })
    },
  )

  it('never returns content from an error response', async () => {
    const send = fakeFetch(answer(404, EXPORT))
    await expect(getExport('123456', { baseUrl: BASE, fetch: send })).rejects.toBeInstanceOf(
      ExportHttpError,
    )
  })
})

describe('success bodies', () => {
  it.each([
    ['not JSON', '<html>captive portal</html>'],
    ['without content', '{"error":"x"}'],
    ['with a content that is not an object', '{"content":[1]}'],
  ])('refuses a 200 %s', async (_, body) => {
    const error = await failureOf(
      getExport('123456', { baseUrl: BASE, fetch: fakeFetch(answer(200, body)) }),
    )
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error).toMatchObject({ status: 200, body })
  })

  it('reads the lifetime and the rate-limit state, and tolerates their absence', async () => {
    const headers = {
      'X-Export-Expires-In': '42',
      'X-RateLimit-Limit': '120',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': '30',
      RateLimit: '"short";r=7;t=30, "long";r=1000;t=100',
      'RateLimit-Policy': '"short";q=120;w=60',
    }
    const send = fakeFetch(answer(200, EXPORT, headers), answer(200, EXPORT))
    const full = await getExport('123456', { baseUrl: BASE, tag: 't', fetch: send })
    expect(full).toEqual({
      content: { project_id: 'p' },
      tag: 't',
      expiresInSeconds: 42,
      rateLimit: {
        limit: 120,
        remaining: 7,
        resetSeconds: 30,
        windows: [
          { name: 'short', remaining: 7, resetSeconds: 30, limit: 120, periodSeconds: 60 },
          { name: 'long', remaining: 1000, resetSeconds: 100, limit: null, periodSeconds: null },
        ],
      },
      waitedSeconds: 0,
      deprecation: null,
      servedTag: null,
    })
    const bare = await getExport('123456', { baseUrl: BASE, fetch: send })
    expect(bare).toMatchObject({ expiresInSeconds: null, rateLimit: null })
  })
})

describe('waiting on 429', () => {
  it('waits the Retry-After of each response, in total within maxWaitSeconds', async () => {
    vi.useFakeTimers()
    const send = fakeFetch(
      answer(429, '{"error":{"code":"rate_limited","retryAfterSeconds":1}}', {
        'Retry-After': '1',
      }),
      answer(429, '{"error":{"code":"rate_limited","retryAfterSeconds":2}}', {
        'Retry-After': '2',
      }),
      answer(200, EXPORT),
    )
    const result = getExport('123456', { baseUrl: BASE, fetch: send, maxWaitSeconds: 3 })
    await vi.advanceTimersByTimeAsync(999)
    expect(send).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(send).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1999)
    expect(send).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(await result).toMatchObject({ content: { project_id: 'p' }, waitedSeconds: 3 })
  })

  it('throws RateLimitedError at once when the next wait would go past maxWaitSeconds', async () => {
    vi.useFakeTimers()
    const send = fakeFetch(
      answer(429, '{}', { 'Retry-After': '1' }),
      answer(429, '{"error":{"code":"rate_limited","message":"Slow down."}}', {
        'Retry-After': '5',
      }),
    )
    const result = failureOf(getExport('123456', { baseUrl: BASE, fetch: send, maxWaitSeconds: 5 }))
    await vi.advanceTimersByTimeAsync(1000)
    const error = await result
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 5,
      message: 'Rate limited (HTTP 429): Slow down. Retry after 5 s.',
    })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('takes the wait from the body when Retry-After is unreadable, and waits at least 1 s', async () => {
    vi.useFakeTimers()
    const send = fakeFetch(
      answer(429, '{"error":{"retryAfterSeconds":2}}'),
      answer(429, '{}', { 'Retry-After': '0' }),
      answer(200, EXPORT),
    )
    const result = getExport('123456', { baseUrl: BASE, fetch: send })
    await vi.advanceTimersByTimeAsync(3000)
    expect(await result).toMatchObject({ waitedSeconds: 3 })
  })

  it('reads Retry-After given as an HTTP date', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') })
    const send = fakeFetch(answer(429, '', { 'Retry-After': 'Thu, 01 Jan 2026 00:00:30 GMT' }))
    const error = await failureOf(
      getExport('123456', { baseUrl: BASE, fetch: send, maxWaitSeconds: 0 }),
    )
    expect(error).toMatchObject({ retryAfterSeconds: 30 })
  })

  it('does not retry a 429 that does not say how long to wait', async () => {
    const send = fakeFetch(answer(429, 'Too Many Requests'))
    const error = await failureOf(getExport('123456', { baseUrl: BASE, fetch: send }))
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ retryAfterSeconds: null })
    expect(send).toHaveBeenCalledTimes(1)
  })

  it('retries a 503 with Retry-After (just published) but not one without', async () => {
    vi.useFakeTimers()
    const send = fakeFetch(
      answer(503, '{"error":{"code":"not_ready"}}', { 'Retry-After': '5' }),
      answer(200, EXPORT),
      answer(503, '<h1>Service Unavailable</h1>'),
    )
    const first = getExport('123456', { baseUrl: BASE, fetch: send })
    await vi.advanceTimersByTimeAsync(5000)
    expect(await first).toMatchObject({ waitedSeconds: 5 })
    const error = await failureOf(getExport('123456', { baseUrl: BASE, fetch: send }))
    expect(error).toMatchObject({ status: 503, code: null })
    expect(error).not.toBeInstanceOf(RateLimitedError)
  })

  it('rejects with the abort reason during a wait, and leaves no timer behind', async () => {
    vi.useFakeTimers()
    const send = fakeFetch(answer(429, '', { 'Retry-After': '30' }))
    const controller = new AbortController()
    const result = failureOf(
      getExport('123456', { baseUrl: BASE, fetch: send, signal: controller.signal }),
    )
    await vi.advanceTimersByTimeAsync(100)
    expect(vi.getTimerCount()).toBe(1)
    const reason = new Error('cancelled')
    controller.abort(reason)
    expect(await result).toBe(reason)
    expect(vi.getTimerCount()).toBe(0)
    expect(send).toHaveBeenCalledTimes(1)
  })

  it('sends nothing when the signal is already aborted, and passes it to fetch', async () => {
    const send = fakeFetch(answer(200, EXPORT))
    const reason = new Error('too late')
    const aborted = AbortSignal.abort(reason)
    expect(
      await failureOf(getExport('123456', { baseUrl: BASE, fetch: send, signal: aborted })),
    ).toBe(reason)
    expect(send).not.toHaveBeenCalled()
    await getExport('123456', { baseUrl: BASE, fetch: send, signal: new AbortController().signal })
    expect(send.requests[0]?.init.signal?.aborted).toBe(false)
    // The signal fetch gets aborts with the caller's reason while the request runs.
    const live = new AbortController()
    const later = new Error('cancelled mid-request')
    const abortingFetch = vi.fn(async (_: string, init: ExportRequestInit) => {
      live.abort(later)
      expect(init.signal?.reason).toBe(later)
      return new Response(EXPORT)
    })
    expect(
      await failureOf(
        getExport('123456', { baseUrl: BASE, fetch: abortingFetch, signal: live.signal }),
      ),
    ).toBe(later)
  })

  it('lets a network error through as fetch raised it', async () => {
    const offline = new TypeError('fetch failed')
    const send = fakeFetch(() => {
      throw offline
    })
    expect(await failureOf(getExport('123456', { baseUrl: BASE, fetch: send }))).toBe(offline)
  })
})

/** A fetch whose request never answers, but rejects with the signal's reason when it aborts. */
function hangingFetch(init: ExportRequestInit): Promise<Response> {
  return new Promise((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true })
  })
}

/** A body of `chunkBytes` chunks that never ends; `pulls` counts the chunks handed out. */
function endlessBody(chunkBytes: number) {
  const chunk = new Uint8Array(chunkBytes).fill(0x20)
  const stats = { pulls: 0, cancelled: false }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      stats.pulls++
      controller.enqueue(chunk)
    },
    cancel() {
      stats.cancelled = true
    },
  })
  return { stream, stats }
}

describe("the client's own bounds", () => {
  it('waits a Retry-After longer than setTimeout holds (24.8 days) for its whole length', async () => {
    vi.useFakeTimers()
    const seconds = 2_200_000 // 25.5 days
    const send = fakeFetch(answer(429, '', { 'Retry-After': String(seconds) }), answer(200, EXPORT))
    const result = getExport('123456', {
      baseUrl: BASE,
      fetch: send,
      maxWaitSeconds: Infinity,
      timeoutSeconds: Infinity,
    })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(send).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(seconds * 1000 - 5_001)
    expect(send).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(await result).toMatchObject({ waitedSeconds: seconds })
    expect(send).toHaveBeenCalledTimes(2)
  })

  it('does not loop with maxWaitSeconds Infinity and an enormous Retry-After', async () => {
    vi.useFakeTimers()
    const send = fakeFetch(answer(429, '', { 'Retry-After': '99999999999999' }))
    const controller = new AbortController()
    const result = failureOf(
      getExport('123456', {
        baseUrl: BASE,
        fetch: send,
        maxWaitSeconds: Infinity,
        signal: controller.signal,
      }),
    )
    await vi.advanceTimersByTimeAsync(30 * 24 * 3600 * 1000)
    expect(send).toHaveBeenCalledTimes(1)
    controller.abort(new Error('enough'))
    expect(await result).toMatchObject({ message: 'enough' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('times a request out after 10 s by default, with a TimeoutError', async () => {
    vi.useFakeTimers()
    const send = vi.fn((_: string, init: ExportRequestInit) => hangingFetch(init))
    const result = failureOf(getExport('123456', { baseUrl: BASE, fetch: send }))
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_SECONDS * 1000 - 1)
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    const error = await result
    expect(error).toBeInstanceOf(DOMException)
    expect(error).toMatchObject({ name: 'TimeoutError' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('counts the body in the timeout, and not the waits between retries', async () => {
    vi.useFakeTimers()
    // One chunk, then nothing, forever.
    const stalled = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"content":')),
    })
    const slowBody = () => new Response(stalled, { status: 200 })
    const send = fakeFetch(answer(429, '', { 'Retry-After': '30' }), answer(200, EXPORT), slowBody)
    const patient = getExport('123456', { baseUrl: BASE, fetch: send, timeoutSeconds: 2 })
    await vi.advanceTimersByTimeAsync(30_000)
    expect(await patient).toMatchObject({ waitedSeconds: 30 })

    const endless = failureOf(
      getExport('123456', { baseUrl: BASE, fetch: send, timeoutSeconds: 2 }),
    )
    await vi.advanceTimersByTimeAsync(2_000)
    expect(await endless).toMatchObject({ name: 'TimeoutError' })
  })

  it('stops reading an endless 200 just past 32 MiB, and says so', async () => {
    const { stream, stats } = endlessBody(1024 * 1024)
    const send = fakeFetch(() => new Response(stream, { status: 200 }))
    const error = await failureOf(getExport('123456', { baseUrl: BASE, fetch: send }))
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect(error).toMatchObject({ status: 200, maxBytes: DEFAULT_MAX_BODY_BYTES })
    expect(stats.cancelled).toBe(true)
    // The stream may hand out a chunk or two ahead of the reader, no more.
    expect(stats.pulls).toBeLessThanOrEqual(DEFAULT_MAX_BODY_BYTES / (1024 * 1024) + 3)
  })

  it('refuses a body whose Content-Length is over maxBodyBytes without reading it', async () => {
    const { stream, stats } = endlessBody(1024)
    const send = fakeFetch(
      () => new Response(stream, { status: 200, headers: { 'Content-Length': '101' } }),
    )
    const error = await failureOf(
      getExport('123456', { baseUrl: BASE, fetch: send, maxBodyBytes: 100 }),
    )
    expect(error).toMatchObject({
      name: 'ResponseTooLargeError',
      message: 'The HTTP 200 response body is larger than 100 bytes (maxBodyBytes).',
    })
    expect(stats.pulls).toBeLessThanOrEqual(1)
  })

  it('accepts a body of exactly maxBodyBytes', async () => {
    const body = EXPORT.padEnd(100, ' ')
    const send = fakeFetch(answer(200, body), answer(200, body + ' '))
    const options = { baseUrl: BASE, fetch: send, maxBodyBytes: 100 }
    expect(await getExport('123456', options)).toMatchObject({ content: { project_id: 'p' } })
    expect(await failureOf(getExport('123456', options))).toBeInstanceOf(ResponseTooLargeError)
  })

  it('reads only the start of an endless error body', async () => {
    const { stream, stats } = endlessBody(1024)
    const send = fakeFetch(() => new Response(stream, { status: 502 }))
    const error = (await failureOf(
      getExport('123456', { baseUrl: BASE, fetch: send }),
    )) as ExportHttpError
    expect(error).toBeInstanceOf(ExportHttpError)
    expect(error.body.length).toBe(MAX_ERROR_BODY_CHARS + 1)
    expect(stats.cancelled).toBe(true)
    expect(stats.pulls).toBeLessThan(20)
  })

  it.each([
    ['maxWaitSeconds', NaN],
    ['maxWaitSeconds', -1],
    ['timeoutSeconds', 0],
    ['timeoutSeconds', NaN],
    ['maxBodyBytes', 0],
  ])('refuses %s = %d before sending anything', async (name, value) => {
    const send = fakeFetch(answer(200, EXPORT))
    await expect(
      getExport('123456', { baseUrl: BASE, fetch: send, [name]: value }),
    ).rejects.toThrow(RangeError)
    expect(send).not.toHaveBeenCalled()
  })
})
