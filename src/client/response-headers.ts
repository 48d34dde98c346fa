/**
 * What the client reads from response headers: the export's remaining lifetime, the wait a
 * 429 asks for, and the rate-limit state. Every reader returns null for a missing or unreadable
 * value instead of guessing: a proxy may strip headers, and a browser hides the ones the server
 * does not expose.
 */
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../contract/wire.js'

/** The rate-limit state after a request. */
export interface RateLimitState {
  /** `X-RateLimit-Limit`: the limit of the window nearest exhaustion. */
  limit: number
  /** `X-RateLimit-Remaining`: requests left in that window. */
  remaining: number
  /** `X-RateLimit-Reset`: whole seconds until that window resets (a duration). */
  resetSeconds: number
  /** Every window, from the `RateLimit` and `RateLimit-Policy` fields; empty when absent. */
  windows: RateLimitWindow[]
}

/** One window of the rate limit, e.g. `short` (120 per 60 s) or `long` (1200 per 3600 s). */
export interface RateLimitWindow {
  name: string
  remaining: number
  resetSeconds: number
  /** Requests allowed per window, or null when `RateLimit-Policy` did not say. */
  limit: number | null
  /** Length of the window in seconds, or null when `RateLimit-Policy` did not say. */
  periodSeconds: number | null
}

const WHOLE_NUMBER = /^[0-9]+$/

/** A header holding a whole number, or null. */
export function wholeNumberHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name)?.trim()
  return value !== undefined && WHOLE_NUMBER.test(value) ? Number(value) : null
}

/** `Retry-After` in whole seconds: delay-seconds or an HTTP date (RFC 9110 section 10.2.3). */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const value = headers.get(RETRY_AFTER_HEADER)?.trim()
  if (value === undefined || value === '') return null
  if (WHOLE_NUMBER.test(value)) return Number(value)
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000))
}

/** The rate-limit state of a response, or null when it carries no `X-RateLimit-*` trio. */
export function rateLimitState(headers: Headers): RateLimitState | null {
  const limit = wholeNumberHeader(headers, RATE_LIMIT_HEADERS.limit)
  const remaining = wholeNumberHeader(headers, RATE_LIMIT_HEADERS.remaining)
  const resetSeconds = wholeNumberHeader(headers, RATE_LIMIT_HEADERS.reset)
  if (limit === null || remaining === null || resetSeconds === null) return null
  return { limit, remaining, resetSeconds, windows: rateLimitWindows(headers) }
}

/**
 * The windows of the `RateLimit` field (`"short";r=117;t=50, "long";r=1197;t=3590`) joined
 * with `RateLimit-Policy` (`"short";q=120;w=60, ...`), draft-ietf-httpapi-ratelimit-headers.
 */
function rateLimitWindows(headers: Headers): RateLimitWindow[] {
  const policies = new Map(
    structuredList(headers.get(RATE_LIMIT_HEADERS.policy)).map((item) => [item.name, item.params]),
  )
  const windows: RateLimitWindow[] = []
  for (const { name, params } of structuredList(headers.get(RATE_LIMIT_HEADERS.state))) {
    const remaining = params.get('r')
    const resetSeconds = params.get('t')
    if (remaining === undefined || resetSeconds === undefined) continue
    const policy = policies.get(name)
    windows.push({
      name,
      remaining,
      resetSeconds,
      limit: policy?.get('q') ?? null,
      periodSeconds: policy?.get('w') ?? null,
    })
  }
  return windows
}

/**
 * A structured-field List of named items with integer parameters, the subset these fields use
 * (RFC 9651); items or parameters of any other shape are skipped.
 */
function structuredList(value: string | null): { name: string; params: Map<string, number> }[] {
  if (value === null) return []
  const items = []
  for (const member of value.split(',')) {
    const [rawName = '', ...rawParams] = member.split(';').map((part) => part.trim())
    const name = rawName.replace(/^"(.*)"$/, '$1')
    if (name === '') continue
    const params = new Map<string, number>()
    for (const param of rawParams) {
      const [key = '', number = ''] = param.split('=').map((part) => part.trim())
      if (WHOLE_NUMBER.test(number)) params.set(key, Number(number))
    }
    items.push({ name, params })
  }
  return items
}
