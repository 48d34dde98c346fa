/**
 * The per-IP rate limit of the public endpoint (docs/api.md#rate-limits). GET and HEAD count,
 * whatever the id; OPTIONS never reaches here (CORS answers it first) and other methods pass
 * uncounted to their 405. Every counted response, 200 or error, carries the rate-limit headers;
 * a refusal is a thrown `rate_limited` failure carrying them, answered by the error handler like
 * any other.
 *
 * The route does not wait for the verdict to start: it gets the verdict as its admission
 * (request-context.ts) and starts reading its export while the limiter decides, so a first
 * request pays the longer of the two waits instead of their sum. A refusal is answered here
 * only, once the route has stopped: the route learns only that it was not admitted. A client
 * this isolate already knows is refused (refusal-memory.ts) is refused before the route starts
 * anything. The isolate also notes how it answered each client (known-clients.ts), and vouches
 * in its calls for those that mostly found exports, whom an object may have forgotten.
 *
 * Misses (misses.ts): once a request is admitted and the route found that no export is here
 * (404, 410, 400 `invalid_id`), the client's wide prefix's object counts the miss before it is
 * answered, and refuses it (429) while the wide prefix is penalized: the many networks of a block
 * cannot all be answered past its budget at once. After the response, the client's own prefix's
 * object counts it in place of the reservation the admission made (docs/rate-limits.md#bursts)
 * and learns the wide prefix's penalty. A hit costs nothing more: its reservation is given back
 * with this isolate's next call to the same object (answered.ts). The penalties these calls
 * bring back are remembered in the isolate too (the client's own, and the wide prefix's).
 *
 * Failing closed (docs/security.md#when-the-limiter-cannot-answer): when the limiter cannot give
 * a verdict (an exception, an overloaded object, no answer within LIMITER_TIMEOUT_MS), the
 * request is answered `503 unavailable` with `Retry-After`, whatever its ID: an answer that
 * depended on the ID (a 200 or a 404) would tell a harvester which IDs are live, uncounted. So
 * is a miss whose wide prefix's object cannot answer.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { failureOf, ServiceFailure, type Failure } from '../http'
import { logIncident, note, type LimiterVerdict, type MissPenalty } from '../observability'
import { withTimeout } from '../timeout'
import { CLIENT_IP_HEADER, prefixKey, widePrefixKey } from './client-key'
import type { ExemptNetworks } from './exempt-networks'
import type { LimitPolicy } from './limits'
import type { MissSettings } from './misses'
import { AnsweredAdmissions } from './answered'
import { KnownClients } from './known-clients'
import type { AnsweredAdmission, MissReport, WideAnswer } from './rate-limiter'
import { RefusalMemory, type ClientPlace } from './refusal-memory'
import { clientKeyOf, setAdmission } from './request-context'
import { exemptNetworks } from './rules'
import { nearestExhaustion, rateLimitHeaders, type RateVerdict, type WindowRule } from './windows'

/**
 * How long a request waits for the limiter's verdict before it is answered `503`. Without a
 * verdict there is no answer (it would fail closed), so the wait is generous: an object's first
 * call far from where it lives, or a busy one, answers late rather than not at all. An
 * overloaded object says so at once and does not wait this long.
 */
export const LIMITER_TIMEOUT_MS = 1000

/**
 * The `Retry-After` of a request the limiter could not answer: an overloaded object needs the
 * pressure off for a moment, and a plugin that honours it retries once rather than in a loop.
 */
export const LIMITER_RETRY_AFTER_SECONDS = 5

/**
 * How long a miss report, sent after the answer, may take: with the route's own waits (KV 3 s,
 * the allocator 2 s) and the wide prefix's answer (LIMITER_TIMEOUT_MS), the report reaches its
 * object within the 10 s a reservation holds (in-flight.ts).
 */
const REPORT_TIMEOUT_MS = 2000

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
  /** The networks exempt from prefix penalties; the vars' by default. Throws likewise. */
  exempt?: (env: Env) => ExemptNetworks
}

/** The limits, the flush interval and the exempt networks of one set of settings. */
interface Policy {
  limits: LimitPolicy
  flushSeconds: number
  exempt: ExemptNetworks
}

/** Counts GET and HEAD against the client's quota, refuses with 429 when it is spent. */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<{ Bindings: Env }> {
  const refusals = new RefusalMemory()
  const answered = new AnsweredAdmissions()
  const known = new KnownClients()
  // Parsed once per settings object rather than per request; settings that do not parse are
  // not remembered, so each request fails on them.
  const policies = new WeakMap<Env, Policy>()
  const policyOf = (env: Env): Policy => {
    let policy = policies.get(env)
    if (policy === undefined) {
      const limits = { rules: options.rules(env), misses: options.misses(env) }
      const exempt = (options.exempt ?? exemptNetworks)(env)
      policy = { limits, flushSeconds: options.flushSeconds(env), exempt }
      policies.set(env, policy)
    }
    return policy
  }
  return async (c, next) => {
    if (!COUNTED_METHODS.has(c.req.method)) return next()
    const policy = policyOf(c.env)
    const { rules } = policy.limits
    const place = placeOf(c, policy)
    let verdict = refusals.recall(place, rules, Date.now())
    if (verdict === null) {
      const vouched = known.vouches(place.key, Date.now())
      const deciding = askLimiter(c.env, place, policy, answered.take(place.prefix), vouched)
      setAdmission(
        c,
        deciding.then((v) => v !== null && v.admitted),
      )
      await next()
      verdict = await deciding
      if (verdict === null) throw failedClosed(c)
      if (!verdict.admitted) refusals.remember(place, rules, verdict)
    }
    note(c, limiterNotes(verdict, place.key))
    // The one place a refusal becomes the answer, whatever the route did meanwhile.
    if (!verdict.admitted) throw refusal(rules, verdict)
    const { reservedAt } = verdict
    const missed = isMiss(c)
    known.answered(place.key, missed, Date.now(), longestWindowMs(rules))
    if (reservedAt === undefined || !missed) {
      setAll(c.res.headers, rateLimitHeaders(rules, verdict))
      const { key: clientKey, exempt } = place
      if (reservedAt !== undefined) answered.add(place.prefix, { clientKey, reservedAt, exempt })
      return
    }
    const wide = await askWide(c.env, place, policy)
    if (wide === null) {
      answered.add(place.prefix, { clientKey: place.key, reservedAt, exempt: place.exempt })
      throw failedClosed(c)
    }
    if (wide.penaltyUntil !== 0 && place.wide !== null) {
      refusals.rememberPenalty(place.wide, wide.penaltyUntil)
    }
    const report = { widePenaltyUntil: wide.penaltyUntil, refused: !wide.counted }
    afterResponse(c, reportMiss(c.env, place, policy, verdict, refusals, report))
    if (!wide.counted) {
      const refused = refusedFor('wide', verdict, wide.penaltyUntil)
      note(c, limiterNotes(refused, place.key))
      throw refusal(rules, refused)
    }
    setAll(c.res.headers, rateLimitHeaders(rules, verdict))
  }
}

/** The answer to a request the limiter gave no verdict on, noted on the request's log line. */
function failedClosed(c: Context): ServiceFailure {
  note(c, { limiter: 'failed_closed' })
  return new ServiceFailure({
    reason: 'limiter_unavailable',
    retryAfterSeconds: LIMITER_RETRY_AFTER_SECONDS,
  })
}

/** Where the request's client stands: its key, its prefixes, whether its network is exempt. */
function placeOf(c: Context, policy: Policy): ClientPlace {
  const key = clientKeyOf(c)
  const exempt = policy.exempt.contains(c.req.header(CLIENT_IP_HEADER))
  return { key, prefix: prefixKey(key), wide: widePrefixKey(key), exempt }
}

/** Whether the answer said that no export is here. */
function isMiss(c: Context): boolean {
  return c.error !== undefined && MISS_REASONS.has(failureOf(c.error).reason)
}

/**
 * Asks the client's wide prefix whether a miss may be answered, before it is (rate-limiter.ts
 * `wideMiss`): null when its object cannot say in time (logged). A client of an exempt network,
 * or with no wide prefix, is not asked.
 */
async function askWide(env: Env, place: ClientPlace, policy: Policy): Promise<WideAnswer | null> {
  if (place.exempt || place.wide === null) return { counted: true, penaltyUntil: 0 }
  try {
    const asking = env.RATE_LIMITER.getByName(place.wide).wideMiss(
      policy.limits,
      policy.flushSeconds,
    )
    const answer: WideAnswer | number = await withTimeout(
      asking,
      LIMITER_TIMEOUT_MS,
      'rate limiter',
    )
    // An object of a version before 1.1.1 (still running during a deploy or after a rollback)
    // answers its penalty's end alone, having counted the miss.
    return typeof answer === 'number' ? { counted: true, penaltyUntil: answer } : answer
  } catch (cause) {
    logIncident('limiter_failed_closed', 'wide rate limiter unavailable, answering 503', cause)
    return null
  }
}

/**
 * Reports a miss once the answer is out to the client's prefix object, with what the wide
 * prefix said (`refused`: the wide prefix refused it, so it counts nowhere and its reservation is
 * given back), and remembers the client's penalty it leaves, so this isolate refuses its next
 * requests without asking. A report the object does not take (it fails, or times out) is logged;
 * the miss's reservation then holds it against the budget until it lapses (in-flight.ts).
 */
async function reportMiss(
  env: Env,
  place: ClientPlace,
  policy: Policy,
  admitted: RateVerdict,
  refusals: RefusalMemory,
  wide: { widePenaltyUntil: number; refused: boolean },
): Promise<void> {
  const { limits, flushSeconds } = policy
  try {
    const counting = env.RATE_LIMITER.getByName(place.prefix).miss(
      place.key,
      limits,
      flushSeconds,
      {
        exempt: place.exempt,
        ...wide,
        ...(admitted.reservedAt === undefined ? {} : { reservedAt: admitted.reservedAt }),
      },
    )
    const report: MissReport = await withTimeout(counting, REPORT_TIMEOUT_MS, 'rate limiter')
    if (report.clientPenaltyUntil !== 0) {
      refusals.remember(
        place,
        limits.rules,
        refusedFor('client', admitted, report.clientPenaltyUntil),
      )
    }
  } catch (cause) {
    logIncident('limiter_miss_unreported', 'a miss went uncounted for the client', cause)
  }
}

/** The refusal, for a penalty of `level` until `retryAt`, of a request `admitted` counted. */
function refusedFor(level: 'client' | 'wide', admitted: RateVerdict, retryAt: number): RateVerdict {
  return {
    ...admitted,
    admitted: false,
    retryAt,
    retryAfterSeconds: Math.max(1, Math.ceil((retryAt - Date.now()) / 1000)),
    penalty: level,
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
    ...(verdict.inFlight === undefined ? {} : { inFlight: verdict.inFlight }),
  })
}

/** The verdict of the client's prefix object, or null when it cannot give one in time (logged). */
async function askLimiter(
  env: Env,
  place: ClientPlace,
  policy: Policy,
  answered: AnsweredAdmission[],
  vouched: boolean,
): Promise<RateVerdict | null> {
  try {
    const hit = env.RATE_LIMITER.getByName(place.prefix).hit(
      place.key,
      policy.limits,
      policy.flushSeconds,
      {
        exempt: place.exempt,
        ...(answered.length === 0 ? {} : { answered }),
        ...(vouched ? { vouched } : {}),
      },
    )
    return await withTimeout(hit, LIMITER_TIMEOUT_MS, 'rate limiter')
  } catch (cause) {
    logIncident('limiter_failed_closed', 'rate limiter unavailable, answering 503', cause)
    return null
  }
}

/**
 * What the log notes of a verdict: on a refusal, the window that refused (`in_flight` for too
 * many requests in flight), and for a miss penalty or requests in flight the length of the
 * prefix that refused (never the address).
 */
function limiterNotes(
  verdict: RateVerdict,
  key: string,
): { limiter: LimiterVerdict; refusingWindow?: string; missPenalty?: MissPenalty } {
  if (verdict.admitted) return { limiter: 'admitted' }
  if (verdict.penalty !== undefined) {
    return { limiter: 'refused', missPenalty: levelLength(key, verdict.penalty) }
  }
  if (verdict.inFlight !== undefined) {
    return {
      limiter: 'refused',
      refusingWindow: 'in_flight',
      missPenalty: levelLength(key, verdict.inFlight),
    }
  }
  return { limiter: 'refused', refusingWindow: nearestExhaustion(verdict.windows).name }
}

/**
 * The length of the prefix a level names for a client key: the client `/32` or `/64`, its
 * prefix `/24` or `/48`, its wide prefix `/16` or `::/32` (an IPv6 /32, told apart from an IPv4
 * address); `other` for a key that is no address.
 */
function levelLength(key: string, level: 'client' | 'prefix' | 'wide'): MissPenalty {
  const prefix = prefixKey(key)
  if (prefix === key) return 'other'
  const ipv6 = prefix.endsWith('/48')
  if (level === 'wide') return ipv6 ? '::/32' : '/16'
  if (level === 'prefix') return ipv6 ? '/48' : '/24'
  return ipv6 ? '/64' : '/32'
}

/** The longest window of the rules (ms): how long an isolate remembers a client it answered. */
function longestWindowMs(rules: readonly WindowRule[]): number {
  return Math.max(...rules.map((rule) => rule.periodSeconds)) * 1000
}

function setAll(target: Headers, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) target.set(name, value)
}
