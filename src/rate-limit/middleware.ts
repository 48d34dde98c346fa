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
 * Misses (misses.ts): once a request is admitted and answered that no export is here (404, 410,
 * 400 `invalid_id`), the miss is counted in the same object after the response is out, the one
 * extra call a miss costs; a hit costs nothing more. A penalty it starts is remembered in the
 * isolate too, for the client or for its whole prefix.
 *
 * Fail-open: when the limiter cannot answer (an exception, an overloaded object, no answer
 * within LIMITER_TIMEOUT_MS), the request is served without limiting and without rate-limit
 * headers, and the failure is logged. For a read-only public API availability beats exact
 * counting; the counts stay exact whenever the limiter answers (up to the loss bound of
 * docs/rate-limits.md#durability).
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { failureOf, ServiceFailure, type Failure } from '../http/errors'
import { logIncident, note, type LimiterVerdict, type MissPenalty } from '../observability'
import { withTimeout } from '../timeout'
import { prefixKey } from './client-key'
import type { LimitPolicy } from './limits'
import type { MissSettings } from './misses'
import type { MissReport } from './rate-limiter'
import { RefusalMemory } from './refusal-memory'
import { clientKeyOf, setAdmission } from './request-context'
import { nearestExhaustion, rateLimitHeaders, type RateVerdict, type WindowRule } from './windows'

/** How long a request waits for the limiter before being served unlimited. */
export const LIMITER_TIMEOUT_MS = 300

const COUNTED_METHODS = new Set(['GET', 'HEAD'])

/** The answers that say no export is here: what the miss limit counts (misses.ts). */
const MISS_REASONS: ReadonlySet<Failure['reason']> = new Set([
  'unknown_id',
  'expired',
  'invalid_id',
])

/** Options of `rateLimit`: the policy, read from the Worker's settings. */
export interface RateLimitOptions {
  /** The windows every client has at once; throws on settings that do not parse. */
  rules: (env: Env) => WindowRule[]
  /** Seconds an admitted request may stay in the limiter's memory only; throws likewise. */
  flushSeconds: (env: Env) => number
  /** The miss limit; throws likewise. */
  misses: (env: Env) => MissSettings
}

/** The limits and the flush interval of one set of settings. */
interface Policy {
  limits: LimitPolicy
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
      const limits = { rules: options.rules(env), misses: options.misses(env) }
      policy = { limits, flushSeconds: options.flushSeconds(env) }
      policies.set(env, policy)
    }
    return policy
  }
  return async (c, next) => {
    if (!COUNTED_METHODS.has(c.req.method)) return next()
    const policy = policyOf(c.env)
    const { rules } = policy.limits
    const key = clientKeyOf(c)
    const prefix = prefixKey(key)
    let verdict = refusals.recall(key, prefix, rules, Date.now())
    if (verdict === null) {
      const deciding = askLimiter(c.env, key, prefix, policy)
      setAdmission(
        c,
        deciding.then((v) => v === null || v.admitted),
      )
      await next()
      verdict = await deciding
      if (verdict !== null && !verdict.admitted) refusals.remember(key, prefix, rules, verdict)
    }
    note(c, limiterNotes(verdict, key))
    if (verdict === null) return
    // The one place a refusal becomes the answer, whatever the route did meanwhile.
    if (!verdict.admitted) throw refusal(rules, verdict)
    setAll(c.res.headers, rateLimitHeaders(rules, verdict))
    if (policy.limits.misses.enabled && isMiss(c)) {
      afterResponse(c, reportMiss(c.env, key, prefix, policy, verdict, refusals))
    }
  }
}

/** Whether the answer said that no export is here. */
function isMiss(c: Context): boolean {
  return c.error !== undefined && MISS_REASONS.has(failureOf(c.error).reason)
}

/**
 * Counts a miss in the client's object once the answer is out, and remembers the penalties it
 * leaves, so this isolate refuses the next requests without asking. A miss the object does not
 * hear of (it fails, or times out) is lost, as the limiter fails open.
 */
async function reportMiss(
  env: Env,
  key: string,
  prefix: string,
  policy: Policy,
  admitted: RateVerdict,
  refusals: RefusalMemory,
): Promise<void> {
  try {
    const report: MissReport = await withTimeout(
      env.RATE_LIMITER.getByName(prefix).miss(key, policy.limits, policy.flushSeconds),
      LIMITER_TIMEOUT_MS,
      'rate limiter',
    )
    if (report.prefixPenaltyUntil !== 0) refusals.rememberPenalty(prefix, report.prefixPenaltyUntil)
    if (report.clientPenaltyUntil !== 0) {
      const retryAt = report.clientPenaltyUntil
      refusals.remember(key, prefix, policy.limits.rules, {
        ...admitted,
        admitted: false,
        retryAt,
        retryAfterSeconds: Math.max(1, Math.ceil((retryAt - Date.now()) / 1000)),
        penalty: 'client',
      })
    }
  } catch (cause) {
    logIncident('limiter_failed_open', 'rate limiter unavailable, a miss went uncounted', cause)
  }
}

/** Runs `work` after the response, within the request's lifetime when the runtime allows. */
function afterResponse(c: Context, work: Promise<void>): void {
  try {
    c.executionCtx.waitUntil(work)
  } catch {
    // No execution context (a bare `app.request` in tests): the work runs on its own.
  }
}

/** The failure of a refused request, with its `Retry-After` and rate-limit headers. */
function refusal(rules: WindowRule[], verdict: RateVerdict): ServiceFailure {
  return new ServiceFailure({
    reason: 'rate_limited',
    retryAfterSeconds: verdict.retryAfterSeconds,
    headers: rateLimitHeaders(rules, verdict),
    ...(verdict.penalty === undefined ? {} : { penalty: verdict.penalty }),
  })
}

/** The verdict of the client's prefix object, or null when it cannot give one in time (logged). */
async function askLimiter(
  env: Env,
  key: string,
  prefix: string,
  policy: Policy,
): Promise<RateVerdict | null> {
  try {
    const hit = env.RATE_LIMITER.getByName(prefix).hit(key, policy.limits, policy.flushSeconds)
    return await withTimeout(hit, LIMITER_TIMEOUT_MS, 'rate limiter')
  } catch (cause) {
    logIncident('limiter_failed_open', 'rate limiter unavailable, serving without a limit', cause)
    return null
  }
}

/**
 * What the log notes of a verdict (`null`: a limiter that could not answer, fail-open): on a
 * refusal, the window that refused, or for a miss penalty the length of the prefix penalized
 * (never the address).
 */
function limiterNotes(
  verdict: RateVerdict | null,
  key: string,
): { limiter: LimiterVerdict; refusingWindow?: string; missPenalty?: MissPenalty } {
  if (verdict === null) return { limiter: 'failed_open' }
  if (verdict.admitted) return { limiter: 'admitted' }
  if (verdict.penalty !== undefined) {
    return { limiter: 'refused', missPenalty: penaltyLength(key, verdict.penalty) }
  }
  return { limiter: 'refused', refusingWindow: nearestExhaustion(verdict.windows).name }
}

/** The length of the prefix a miss penalty applies to: `/32` or `/24`, `/64` or `/48`. */
function penaltyLength(key: string, penalty: 'client' | 'prefix'): MissPenalty {
  const prefix = prefixKey(key)
  if (prefix === key) return 'other'
  const ipv6 = prefix.endsWith('/48')
  if (penalty === 'prefix') return ipv6 ? '/48' : '/24'
  return ipv6 ? '/64' : '/32'
}

function setAll(target: Headers, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) target.set(name, value)
}
