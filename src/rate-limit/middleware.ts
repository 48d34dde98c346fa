/**
 * The per-IP rate limit of the public endpoint (spec 8). GET and HEAD count, whatever the id;
 * OPTIONS never reaches here (CORS answers it first) and other methods pass uncounted to their
 * 405. Every counted response, 200 or error, carries the rate-limit headers; a refusal is a
 * thrown `rate_limited` failure carrying them, answered by the error handler like any other.
 *
 * The route does not wait for the verdict to start: it gets the verdict as its admission
 * (request-context.ts) and starts reading its export while the limiter decides, so a first
 * request pays the longer of the two waits instead of their sum. A refusal is answered here
 * only, once the route has stopped: the route learns only that it was not admitted. A client
 * this isolate already knows is refused (refusal-memory.ts) is refused before the route starts
 * anything.
 *
 * Fail-open: when the limiter cannot answer (an exception, an overloaded object, no answer
 * within LIMITER_TIMEOUT_MS), the request is served without limiting and without rate-limit
 * headers, and the failure is logged. For a read-only public API availability beats exact
 * counting; the counts stay exact whenever the limiter answers (up to the loss bound of
 * docs/rate-limits.md#durability).
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { ServiceFailure } from '../http/errors'
import { logIncident, note, type LimiterVerdict } from '../observability'
import { withTimeout } from '../timeout'
import { RefusalMemory } from './refusal-memory'
import { clientKeyOf, setAdmission } from './request-context'
import { nearestExhaustion, rateLimitHeaders, type RateVerdict, type WindowRule } from './windows'

/** How long a request waits for the limiter before being served unlimited. */
export const LIMITER_TIMEOUT_MS = 300

const COUNTED_METHODS = new Set(['GET', 'HEAD'])

/** Options of `rateLimit`: the policy, read from the Worker's settings. */
export interface RateLimitOptions {
  /** The windows every client has at once; throws on settings that do not parse. */
  rules: (env: Env) => WindowRule[]
  /** Seconds an admitted request may stay in the limiter's memory only; throws likewise. */
  flushSeconds: (env: Env) => number
}

/** The limits and the flush interval of one set of settings. */
interface Policy {
  rules: WindowRule[]
  flushSeconds: number
}

/** Counts GET and HEAD against the client's quota, refuses with 429 when it is spent. */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<{ Bindings: Env }> {
  const refusals = new RefusalMemory()
  // Parsed once per settings object rather than per request; settings that do not parse are
  // not remembered, so each request fails on them.
  const policies = new WeakMap<Env, Policy>()
  const policyOf = (env: Env): Policy => {
    let policy = policies.get(env)
    if (policy === undefined) {
      policy = { rules: options.rules(env), flushSeconds: options.flushSeconds(env) }
      policies.set(env, policy)
    }
    return policy
  }
  return async (c, next) => {
    if (!COUNTED_METHODS.has(c.req.method)) return next()
    const { rules, flushSeconds } = policyOf(c.env)
    const key = clientKeyOf(c)
    let verdict = refusals.recall(key, rules, Date.now())
    if (verdict === null) {
      const deciding = askLimiter(c.env, key, rules, flushSeconds)
      setAdmission(
        c,
        deciding.then((v) => v === null || v.admitted),
      )
      await next()
      verdict = await deciding
      if (verdict !== null && !verdict.admitted) refusals.remember(key, rules, verdict)
    }
    note(c, limiterNotes(verdict))
    if (verdict === null) return
    // The one place a refusal becomes the answer, whatever the route did meanwhile.
    if (!verdict.admitted) throw refusal(rules, verdict)
    setAll(c.res.headers, rateLimitHeaders(rules, verdict))
  }
}

/** The failure of a refused request, with its `Retry-After` and rate-limit headers. */
function refusal(rules: WindowRule[], verdict: RateVerdict): ServiceFailure {
  return new ServiceFailure({
    reason: 'rate_limited',
    retryAfterSeconds: verdict.retryAfterSeconds,
    headers: rateLimitHeaders(rules, verdict),
  })
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

/** What the log notes of a verdict (`null`: a limiter that could not answer, fail-open). */
function limiterNotes(verdict: RateVerdict | null): {
  limiter: LimiterVerdict
  refusingWindow?: string
} {
  if (verdict === null) return { limiter: 'failed_open' }
  if (verdict.admitted) return { limiter: 'admitted' }
  return { limiter: 'refused', refusingWindow: nearestExhaustion(verdict.windows).name }
}

function setAll(target: Headers, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) target.set(name, value)
}
