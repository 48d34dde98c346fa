/**
 * The per-IP rate limit of the public endpoint (docs/api.md#rate-limits): the isolate's side of
 * the limiter (the objects' side: rate-limiter.ts; between them: protocol.ts). GET and HEAD count,
 * whatever the id; OPTIONS never reaches here (CORS answers it first) and other methods pass
 * uncounted to their 405. Every counted response, 200 or error, carries the rate-limit headers;
 * a refusal is a thrown `rate_limited` failure carrying them, answered by the error handler like
 * any other.
 *
 * Every refusal is decided at admission, by the client's own object (one call, its windows and
 * penalties, and what this isolate knows of its network: network-gate.ts), before the route has
 * read anything: no refusal depends on whether the ID is live. The route does not wait for the
 * verdict to start: it gets the verdict as its admission (request-context.ts) and starts reading
 * its export while the object decides, so a first request pays the longer of the two waits
 * instead of their sum. A refusal is answered here only, once the route has stopped. A client
 * this isolate already knows is refused (refusal-memory.ts) is refused before the route starts
 * anything. The isolate also notes how it answered each client (known-clients.ts), and vouches in
 * its calls for those that mostly found exports, whom their object may have forgotten.
 *
 * A request once admitted is answered as what it is. When the route found that no export is here
 * (404, 410, 400 `invalid_id`; or a 503 for an ID KV does not hold, whose shard did not answer),
 * the miss is counted before it is answered, by the client's object and by its network's object
 * at once (docs/rate-limits.md#misses); their penalties refuse the later requests at admission. A
 * hit costs nothing more.
 *
 * Failing closed (docs/security.md#when-the-limiter-cannot-answer): when the client's object
 * cannot give a verdict (an exception, an overloaded object, no answer within LIMITER_TIMEOUT_MS),
 * the request is answered `503 unavailable` with `Retry-After`, whatever its ID. A miss whose
 * count fails is still answered as a miss (a 503 for it alone would say the ID is dead): it is
 * logged and counted in this isolate instead, against its network's burst room.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { failureOf, ServiceFailure, type Failure } from '../http'
import { logIncident, note, type LimiterVerdict, type MissPenalty } from '../observability'
import { withTimeout } from '../timeout'
import type { ClientAddress } from './client-key'
import type { ExemptNetworks } from './exempt-networks'
import type { LimitPolicy } from './limits'
import type { MissSettings } from './misses'
import { KnownClients } from './known-clients'
import { NetworkGate, type Slot } from './network-gate'
import type {
  ClientMissCount,
  ClientVerdict,
  NetworkHint,
  NetworkMissCount,
  RequestStanding,
} from './protocol'
import { RefusalMemory, type ClientPlace } from './refusal-memory'
import { clientAddressOf, setAdmission } from './request-context'
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
  const gate = new NetworkGate()
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
    const { rules, misses } = policy.limits
    const place = placeOf(c, policy)
    let verdict: ClientVerdict | null = refusals.recall(place, rules, Date.now())
    let slot: Slot | undefined
    let network: NetworkHint | undefined
    try {
      if (verdict === null) {
        const standing: RequestStanding = { exempt: place.exempt }
        if (known.vouches(place.key, Date.now())) standing.vouched = true
        if (misses.enabled && !place.exempt) {
          const entered = gate.enter(place.prefix, misses.prefix.budget, Date.now())
          ;({ slot } = entered)
          network = standing.network = entered.hint
        }
        const deciding = askLimiter(c.env, place, policy, standing)
        setAdmission(
          c,
          deciding.then((v) => {
            // A clean client is not held by its network's burst room.
            if (v === null || !v.admitted || v.clean === true) slot?.release()
            return v !== null && v.admitted
          }),
        )
        await next()
        verdict = await deciding
        if (verdict === null) throw failedClosed(c)
        if (!verdict.admitted) refusals.remember(place, rules, verdict)
      }
      note(c, limiterNotes(verdict, place))
      // The one place a refusal becomes the answer, whatever the route did meanwhile.
      if (!verdict.admitted) throw refusal(rules, verdict)
      const missed = isMiss(c)
      known.answered(place.key, missed, Date.now(), longestWindowMs(rules))
      if (missed && misses.enabled) {
        await countMiss(c.env, place, policy, { gate, refusals, admitted: verdict, network })
      }
      setAll(c.res.headers, rateLimitHeaders(rules, verdict))
    } finally {
      slot?.release()
    }
  }
}

/** What counting a miss needs beside the request's place and policy. */
interface MissCounting {
  gate: NetworkGate
  refusals: RefusalMemory
  admitted: ClientVerdict
  /** What this isolate knew of the network at admission; absent for an exempt client. */
  network: NetworkHint | undefined
}

/**
 * Counts a miss before it is answered, by the client's object and, unless the client is exempt,
 * by its network's object, both at once; learns the network's state, and remembers the client's
 * penalty so this isolate refuses its next requests without asking. A count that fails is logged
 * and the miss answered all the same; the network's is counted in this isolate instead.
 */
async function countMiss(
  env: Env,
  place: ClientPlace,
  policy: Policy,
  { gate, refusals, admitted, network }: MissCounting,
): Promise<void> {
  const { limits, flushSeconds } = policy
  const networkStrained = network?.strained === true
  const [client, counted] = await Promise.all([
    ask<ClientMissCount>('miss', () =>
      env.RATE_LIMITER.getByName(place.key).miss(place.key, limits, flushSeconds, {
        networkStrained,
      }),
    ),
    place.exempt
      ? Promise.resolve(null)
      : ask<NetworkMissCount>('miss', () =>
          env.RATE_LIMITER.getByName(place.prefix).networkMiss(
            limits,
            flushSeconds,
            admitted.clean === true,
          ),
        ),
  ])
  if (!place.exempt) {
    if (counted !== null) gate.counted(place.prefix, counted, Date.now())
    else {
      const { prefix, firstPenaltySeconds } = limits.misses
      gate.uncounted(place.prefix, Date.now(), prefix, firstPenaltySeconds * 1000)
    }
  }
  if (client !== null && client.penaltyUntil !== 0) {
    refusals.remember(place, limits.rules, refusedFor(admitted, client.penaltyUntil))
  }
}

/**
 * One call to an object within LIMITER_TIMEOUT_MS, or null (logged): at admission the request is
 * then answered 503; a miss's count is then missing, and the miss answered all the same.
 */
async function ask<T>(kind: 'hit' | 'miss', call: () => Promise<T>): Promise<T | null> {
  try {
    return await withTimeout(call(), LIMITER_TIMEOUT_MS, 'rate limiter')
  } catch (cause) {
    if (kind === 'hit') {
      logIncident('limiter_failed_closed', 'rate limiter unavailable, answering 503', cause)
    } else {
      logIncident('limiter_miss_unreported', 'a miss went uncounted by its object', cause)
    }
    return null
  }
}

/** The failure of a request the limiter gave no verdict on, noted on the request's log line. */
function failedClosed(c: Context): ServiceFailure {
  note(c, { limiter: 'failed_closed' })
  return new ServiceFailure({
    reason: 'limiter_unavailable',
    retryAfterSeconds: LIMITER_RETRY_AFTER_SECONDS,
  })
}

/** Where the request's client stands: its address, and whether its network is exempt. */
function placeOf(c: Context, policy: Policy): ClientPlace {
  const address = clientAddressOf(c)
  return { ...address, exempt: policy.exempt.contains(address) }
}

/**
 * Whether the answer said that no export is here, or told as much: a 503 for an ID KV does not
 * hold whose shard did not answer comes to a guess far more often than to a live ID, so it is
 * counted like a miss, or a harvester would learn from it for free while a shard is slow.
 */
function isMiss(c: Context): boolean {
  if (c.error === undefined) return false
  const failure = failureOf(c.error)
  return (
    MISS_REASONS.has(failure.reason) ||
    (failure.reason === 'storage_failed' && failure.unsettled === true)
  )
}

/** The refusal, for the client's own penalty until `retryAt`, of a request `admitted` counted. */
function refusedFor(admitted: RateVerdict, retryAt: number): RateVerdict {
  return {
    ...admitted,
    admitted: false,
    retryAt,
    retryAfterSeconds: Math.max(1, Math.ceil((retryAt - Date.now()) / 1000)),
    penalty: 'client',
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

/** The verdict of the client's object, or null when it cannot give one in time (logged). */
function askLimiter(
  env: Env,
  place: ClientPlace,
  policy: Policy,
  standing: RequestStanding,
): Promise<ClientVerdict | null> {
  return ask('hit', () =>
    env.RATE_LIMITER.getByName(place.key).hit(
      place.key,
      policy.limits,
      policy.flushSeconds,
      standing,
    ),
  )
}

/**
 * What the log notes of a verdict: on a refusal, the window that refused (`in_flight` for too
 * many requests in flight), and for a miss penalty or requests in flight the length of the
 * prefix that refused (never the address).
 */
function limiterNotes(
  verdict: RateVerdict,
  address: ClientAddress,
): { limiter: LimiterVerdict; refusingWindow?: string; missPenalty?: MissPenalty } {
  if (verdict.admitted) return { limiter: 'admitted' }
  if (verdict.penalty !== undefined) {
    return { limiter: 'refused', missPenalty: levelLength(address, verdict.penalty) }
  }
  if (verdict.inFlight !== undefined) {
    return {
      limiter: 'refused',
      refusingWindow: 'in_flight',
      missPenalty: levelLength(address, verdict.inFlight),
    }
  }
  return { limiter: 'refused', refusingWindow: nearestExhaustion(verdict.windows).name }
}

/**
 * The length of the prefix a level names for a client's address: the client `/32` or `/64`, its
 * network `/24` or `/48`; `other` for a key that is no address.
 */
function levelLength(address: ClientAddress, level: 'client' | 'prefix'): MissPenalty {
  if (address.family === null) return 'other'
  const ipv6 = address.family === 6
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
