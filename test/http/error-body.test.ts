/**
 * The error body's two forms, and its messages as plain text whatever the input they quote.
 */
import { describe, expect, it } from 'vitest'
import { errorResponse, toPublicError, type Failure } from '../../src/http'

/** Every control, format (bidirectional, zero-width) and separator character a message may meet. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u
const HOSTILE = 'a\u202Eb\u2066c\u200Bd\u0000e\nf\r\u2028g\u0085h\uFEFFi'

describe('the error body', () => {
  it('carries the message as a string, with code and details beside it, except on 429', async () => {
    const res = errorResponse({ reason: 'too_large', limitBytes: 10 })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      error: 'The export is larger than the 10-byte limit.',
      code: 'too_large',
      limitBytes: 10,
    })
  })

  it('puts retryAfterSeconds at the top level of a 503, equal to Retry-After', async () => {
    const res = errorResponse({ reason: 'not_yet_visible', id: '123456', retryAfterSeconds: 4 })
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('4')
    expect(await res.json()).toEqual({
      error: expect.any(String),
      code: 'not_ready',
      retryAfterSeconds: 4,
    })
  })

  it('keeps the object form on 429, with error.retryAfterSeconds', async () => {
    const res = errorResponse({ reason: 'rate_limited', retryAfterSeconds: 9, headers: {} })
    expect(res.status).toBe(429)
    expect(await res.json()).toEqual({
      error: {
        code: 'rate_limited',
        message: 'Too many requests from this address. Retry after 9 seconds.',
        retryAfterSeconds: 9,
      },
    })
  })
})

describe('error messages', () => {
  const quoting: Failure[] = [
    { reason: 'invalid_json', detail: HOSTILE },
    { reason: 'invalid_export', detail: HOSTILE },
    { reason: 'invalid_quick_command', detail: HOSTILE },
    { reason: 'method_not_allowed', method: HOSTILE, allow: 'GET' },
  ]

  it.each(quoting)('keep no control, format or bidirectional character ($reason)', async (f) => {
    const body = await errorResponse(f).json<{ error: string }>()
    expect(body.error).not.toMatch(UNPRINTABLE)
    expect(body.error).toContain('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFD\uFFFDg\uFFFDh\uFFFDi')
  })

  it('are plain text for the RPC entrypoint too, which reads the same mapping', () => {
    expect(toPublicError({ reason: 'invalid_export', detail: HOSTILE }).message).not.toMatch(
      UNPRINTABLE,
    )
  })
})
