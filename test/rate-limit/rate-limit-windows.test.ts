import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { reset } from 'cloudflare:test'
import { rateLimitRules } from '../../src/rate-limit'
import { decide, type WindowRule, type WindowState } from '../../src/rate-limit/testing'
import { callWithEnv } from '../support/helpers'

const RULES: WindowRule[] = [
  { name: 'short', limit: 2, periodSeconds: 10 },
  { name: 'long', limit: 3, periodSeconds: 100 },
]
const T0 = 1_000_000

/** The stored state after `times` requests at `now`, starting from nothing. */
function afterHits(times: number, now: number): Record<string, WindowState> {
  let state: Record<string, WindowState> = {}
  for (let i = 0; i < times; i++) state = decide(RULES, state, now).next ?? state
  return state
}

describe('the window settings', () => {
  const rules = (short: string, long = '') =>
    rateLimitRules({ ...env, RATE_LIMIT_SHORT: short, RATE_LIMIT_LONG: long })

  it('reads "requests/seconds", and the defaults when unset', () => {
    expect(rules('120/60', ' 1200/3600 ')).toEqual([
      { name: 'short', limit: 120, periodSeconds: 60 },
      { name: 'long', limit: 1200, periodSeconds: 3600 },
    ])
    expect(rules('')).toEqual([
      { name: 'short', limit: 120, periodSeconds: 60 },
      { name: 'long', limit: 1200, periodSeconds: 3600 },
    ])
  })

  it.each(['120', '120/', '/60', '0/60', '120/0', '-1/60', '1.5/60', '120/60/1', 'abc'])(
    'rejects %j',
    (raw) => {
      expect(() => rules(raw)).toThrow(/short rate limit/)
    },
  )
})

describe('decide', () => {
  it('starts both windows at the first request and counts it in both', () => {
    const { verdict, next } = decide(RULES, {}, T0)
    expect(verdict).toEqual({
      admitted: true,
      retryAfterSeconds: 0,
      retryAt: 0,
      windows: [
        { name: 'short', limit: 2, remaining: 1, resetSeconds: 10, resetAt: T0 + 10_000 },
        { name: 'long', limit: 3, remaining: 2, resetSeconds: 100, resetAt: T0 + 100_000 },
      ],
    })
    expect(next).toEqual({
      short: { count: 1, resetAt: T0 + 10_000 },
      long: { count: 1, resetAt: T0 + 100_000 },
    })
  })

  it('refuses once a window is full and changes nothing', () => {
    const state = afterHits(2, T0)
    const { verdict, next } = decide(RULES, state, T0 + 2_500)
    expect(next).toBeNull()
    expect(verdict.admitted).toBe(false)
    expect(verdict.retryAfterSeconds).toBe(8)
  })

  it('rounds the reset and the retry up to whole seconds, at least 1', () => {
    const state = afterHits(2, T0)
    const { verdict } = decide(RULES, state, T0 + 9_999)
    expect(verdict.retryAfterSeconds).toBe(1)
    expect(verdict.windows[0]!.resetSeconds).toBe(1)
  })

  it('admits again the moment the window resets, and starts a new window then', () => {
    const state = afterHits(2, T0)
    const { verdict, next } = decide(RULES, state, T0 + 10_000)
    expect(verdict.admitted).toBe(true)
    expect(next!.short).toEqual({ count: 1, resetAt: T0 + 20_000 })
    expect(next!.long).toEqual({ count: 3, resetAt: T0 + 100_000 })
  })

  it('waits for the later window when both refuse', () => {
    const stored = {
      short: { count: 2, resetAt: T0 + 5_000 },
      long: { count: 3, resetAt: T0 + 50_000 },
    }
    expect(decide(RULES, stored, T0).verdict.retryAfterSeconds).toBe(50)
  })

  it('shows a lapsed window as full and about to start when the other refuses', () => {
    const stored = {
      short: { count: 1, resetAt: T0 - 1 },
      long: { count: 3, resetAt: T0 + 50_000 },
    }
    const { verdict } = decide(RULES, stored, T0)
    expect(verdict.windows[0]).toEqual({
      name: 'short',
      limit: 2,
      remaining: 2,
      resetSeconds: 10,
      resetAt: T0 + 10_000,
    })
    expect(verdict.retryAfterSeconds).toBe(50)
    expect(verdict.retryAt).toBe(T0 + 50_000)
  })

  it('never reports a negative remaining count after the limit was lowered', () => {
    const stored = { short: { count: 9, resetAt: T0 + 5_000 } }
    expect(decide(RULES, stored, T0).verdict.windows[0]!.remaining).toBe(0)
  })
})

describe('the window the legacy headers describe', () => {
  afterEach(() => reset())

  /** The legacy trio after `requests` requests of one client, as `limit/remaining/reset`. */
  async function trioAfter(requests: number, short: string, long: string): Promise<string> {
    let res: Response | undefined
    for (let i = 0; i < requests; i++) {
      res = await callWithEnv(
        { RATE_LIMIT_SHORT: short, RATE_LIMIT_LONG: long },
        '/server-api?id=999999',
        {
          headers: { 'CF-Connecting-IP': '192.0.2.40' },
        },
      )
    }
    const h = res!.headers
    return `${h.get('X-RateLimit-Limit')}/${h.get('X-RateLimit-Remaining')}/${h.get('X-RateLimit-Reset')}`
  }

  it('is the one with fewest requests left', async () => {
    expect(await trioAfter(1, '5/10', '3/100')).toBe('3/2/100')
    await reset()
    expect(await trioAfter(1, '2/10', '9/100')).toBe('2/1/10')
  })

  it('is, on a tie, the one that resets later', async () => {
    expect(await trioAfter(1, '2/10', '2/100')).toBe('2/1/100')
  })
})

describe('a refusal asked again', () => {
  afterEach(() => {
    vi.useRealTimers()
    return reset()
  })

  /** A request of one client at `T0 + seconds`, with the windows of RULES. */
  async function at(seconds: number): Promise<Response> {
    vi.setSystemTime(T0 + seconds * 1000)
    return callWithEnv(
      { RATE_LIMIT_SHORT: '2/10', RATE_LIMIT_LONG: '3/100' },
      '/server-api?id=999999',
      {
        headers: { 'CF-Connecting-IP': '192.0.2.41' },
      },
    )
  }

  it('is answered as the limiter would: durations moved, a window lapsed meanwhile shown empty', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    await at(0)
    await at(0)
    await at(10)
    const refused = await at(11)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('RateLimit')).toBe('"short";r=1;t=9, "long";r=0;t=89')
    const later = await at(12.5)
    expect(later.headers.get('Retry-After')).toBe('88')
    expect(later.headers.get('RateLimit')).toBe('"short";r=1;t=8, "long";r=0;t=88')
    // The short window reset at 20 s: the refusal shows it as the limiter would, full and unstarted.
    const lapsed = await at(25)
    expect(lapsed.status).toBe(429)
    expect(lapsed.headers.get('Retry-After')).toBe('75')
    expect(lapsed.headers.get('RateLimit')).toBe('"short";r=2;t=10, "long";r=0;t=75')
  })
})
