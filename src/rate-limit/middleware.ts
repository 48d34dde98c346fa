/**
 * The per-IP rate limit of the public endpoint (spec 8). GET and HEAD count, whatever the id;
 * OPTIONS never reaches here (CORS answers it first) and other methods pass uncounted to their
 * 405. Every counted response, 200 or error, carries the rate-limit headers; a refusal is a 429
 * answered here.
 *
 * Fail-open: when the limiter cannot answer (an exception, an overloaded object, no answer
 * within LIMITER_TIMEOUT_MS), the request is served without limiting and without rate-limit
 * headers, and the failure is logged. For a read-only public API availability beats exact
 * counting; the counts stay exact whenever the limiter answers (up to the loss bound of
 * docs/rate-limits.md#durability).
 */
import type { MiddlewareHandler } from 'hono'
import { rateLimitFlushSeconds, type Env } from '../config'
import { errorResponse } from '../http/errors'
import { logIncident, note, type LimiterVerdict } from '../observability'
import { withTimeout } from '../timeout'
import { CLIENT_IP_HEADER, clientKey } from './client-key'
import { RefusalMemory } from './refusal-memory'
import { rateLimitRules } from './rules'
import { nearestExhaustion, rateLimitHeaders, type RateVerdict, type WindowRule } from './windows'

/** How long a request waits for the limiter before being served unlimited. */
export const LIMITER_TIMEOUT_MS = 300

const COUNTED_METHODS = new Set(['GET', 'HEAD'])

/** Counts GET and HEAD against the client's quota, refuses with 429 when it is spent. */
export function rateLimit(): MiddlewareHandler<{ Bindings: Env }> {
  const refusals = new RefusalMemory()
  const policies = new PolicyMemory()
  return async (c, next) => {
    if (!COUNTED_METHODS.has(c.req.method)) return next()
    const { rules, flushSeconds } = policies.of(c.env)
    const key = clientKey(c.req.header(CLIENT_IP_HEADER))
    const verdict =
      refusals.recall(key, rules, Date.now()) ?? (await askLimiter(c.env, key, rules, flushSeconds))
    note(c, limiterNotes(verdict, key))
    if (verdict === null) return next()
    if (!verdict.admitted) refusals.remember(key, rules, verdict)

    const headers = rateLimitHeaders(rules, verdict)
    if (!verdict.admitted) {
      // Hono drops the body of a HEAD answer, so a HEAD gets these headers alone.
      const response = errorResponse({
        reason: 'rate_limited',
        retryAfterSeconds: verdict.retryAfterSeconds,
      })
      setAll(response.headers, headers)
      return response
    }
    await next()
    setAll(c.res.headers, headers)
  }
}

/** The limiter's verdict, or null when it cannot give one in time (logged). */
async function askLimiter(
  env: Env,
  key: string,
  rules: WindowRule[],
  flushSeconds: number,
): Promise<RateVerdict | null> {
  try {
    const hit = env.RATE_LIMITER.getByName(key).hit(rules, flushSeconds)
    return await withTimeout(hit, LIMITER_TIMEOUT_MS, 'rate limiter')
  } catch (cause) {
    logIncident('limiter_failed_open', 'rate limiter unavailable, serving without a limit', cause)
    return null
  }
}

/** The limits and the flush interval of the vars. */
interface Policy {
  rules: WindowRule[]
  flushSeconds: number
}

/**
 * The policy parsed once per isolate instead of on every request, for as long as the vars it
 * comes from stay the same (they differ per test). Vars that do not parse are not remembered, so
 * each request fails on them.
 */
class PolicyMemory {
  private vars: readonly (string | undefined)[] = []
  private policy: Policy | null = null

  of(env: Env): Policy {
    const vars = [env.RATE_LIMIT_SHORT, env.RATE_LIMIT_LONG, env.RATE_LIMIT_FLUSH_SECONDS]
    if (this.policy === null || vars.some((value, i) => value !== this.vars[i])) {
      this.policy = { rules: rateLimitRules(env), flushSeconds: rateLimitFlushSeconds(env) }
      this.vars = vars
    }
    return this.policy
  }
}

/**
 * What the log notes of a verdict (`null`: a limiter that could not answer, fail-open) and of
 * the client key it was asked for.
 */
function limiterNotes(
  verdict: RateVerdict | null,
  clientKey: string,
): { limiter: LimiterVerdict; refusingWindow?: string; clientKey: string } {
  if (verdict === null) return { limiter: 'failed_open', clientKey }
  if (verdict.admitted) return { limiter: 'admitted', clientKey }
  const refusingWindow = nearestExhaustion(verdict.windows).name
  return { limiter: 'refused', refusingWindow, clientKey }
}

function setAll(target: Headers, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) target.set(name, value)
}
