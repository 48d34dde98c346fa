/**
 * Fixed-window arithmetic for the per-IP limits (docs/api.md#rate-limits): pure functions of the
 * rules, the stored counters and the time. No storage, no HTTP beyond the header values.
 *
 * A window starts at the first counted request after its counter resets and lasts its period.
 * A request is admitted only if every window has room, and then counts in every window; a
 * refused request counts nowhere, so waiting `Retry-After` is enough to be admitted again.
 */
import { RATE_LIMIT_HEADERS } from '../contract/wire'

/** One window of a policy: at most `limit` requests per `periodSeconds`. */
export interface WindowRule {
  name: string
  limit: number
  periodSeconds: number
}

/** What is stored of one window: requests counted, and when it resets (ms since the epoch). */
export interface WindowState {
  count: number
  resetAt: number
}

/** One window as a caller sees it after the request. */
export interface WindowReport {
  name: string
  limit: number
  remaining: number
  /** Whole seconds until the window resets, rounded up: a duration, not a timestamp. */
  resetSeconds: number
  /** When the window resets, ms since the Unix epoch. */
  resetAt: number
}

/** The limiter's answer to one request. */
export interface RateVerdict {
  admitted: boolean
  /** Whole seconds until the request would be admitted (at least 1); 0 when admitted. */
  retryAfterSeconds: number
  /** When a refused request would be admitted, ms since the Unix epoch; 0 when admitted. */
  retryAt: number
  /** One report per rule, in the order of the rules. */
  windows: WindowReport[]
  /**
   * Set on a refusal that a miss penalty causes (misses.ts): whose misses, the client's own or
   * its network's. The windows are then reported as they stand, nothing counted.
   */
  penalty?: MissLevel
  /**
   * Set on a refusal because the network's requests in flight from clients not known to be
   * clean already hold what is left of its miss budget (network-gate.ts). Windows as they stand.
   */
  inFlight?: InFlightLevel
}

/** Whose misses: the client's, or its network's (client-key.ts). */
export type MissLevel = 'client' | 'prefix'

/** Whose requests in flight: the network's. */
export type InFlightLevel = 'prefix'

/** Why a request is refused when its windows have room. */
export type RefusalReason = { penalty: MissLevel } | { inFlight: InFlightLevel }

/** A verdict and the window states to store if the request was admitted. */
export interface Decision {
  verdict: RateVerdict
  /** The new states by window name, or null when nothing changes (a refusal). */
  next: Record<string, WindowState> | null
}

/** Decides whether a request at `now` (ms) is admitted, given the stored windows. */
export function decide(
  rules: readonly WindowRule[],
  stored: Readonly<Record<string, WindowState>>,
  now: number,
): Decision {
  const states = rules.map((rule) => currentState(rule, stored[rule.name], now))
  const refusing = states.filter((state, i) => state.count >= rules[i]!.limit)
  const admitted = refusing.length === 0
  const after = admitted ? states.map((s) => ({ count: s.count + 1, resetAt: s.resetAt })) : states
  const windows = rules.map((rule, i) => report(rule, after[i]!, now))
  const retryAt = admitted ? 0 : Math.max(...refusing.map((state) => state.resetAt))
  const retryAfterSeconds = admitted ? 0 : retryAfter(retryAt, now)
  const next = admitted ? Object.fromEntries(rules.map((rule, i) => [rule.name, after[i]!])) : null
  return { verdict: { admitted, retryAfterSeconds, retryAt, windows }, next }
}

/**
 * A refusal at `now` until `until` (ms) for a reason other than the windows (a miss penalty,
 * requests in flight): nothing counts, the windows are reported as they stand, and if one is
 * spent too the refusal lasts until it resets as well.
 */
export function refuseUntil(
  rules: readonly WindowRule[],
  stored: Readonly<Record<string, WindowState>>,
  now: number,
  until: number,
  reason: RefusalReason,
): RateVerdict {
  const states = rules.map((rule) => currentState(rule, stored[rule.name], now))
  const spent = states.filter((state, i) => state.count >= rules[i]!.limit)
  const retryAt = Math.max(until, ...spent.map((state) => state.resetAt))
  const windows = rules.map((rule, i) => report(rule, states[i]!, now))
  return {
    admitted: false,
    retryAfterSeconds: retryAfter(retryAt, now),
    retryAt,
    windows,
    ...reason,
  }
}

/**
 * A refusal as it stands at a later `now` before its `retryAt`: nothing was counted since (a
 * refusal counts nowhere), so only the durations move, and a window that lapsed meanwhile is
 * empty again, exactly as `decide` would report it.
 */
export function refusalAsOf(
  rules: readonly WindowRule[],
  refusal: RateVerdict,
  now: number,
): RateVerdict {
  const windows = refusal.windows.map((w, i) =>
    now < w.resetAt
      ? { ...w, resetSeconds: secondsUntil(w.resetAt, now) }
      : report(rules[i]!, currentState(rules[i]!, undefined, now), now),
  )
  return { ...refusal, retryAfterSeconds: retryAfter(refusal.retryAt, now), windows }
}

/**
 * The window the `X-RateLimit-*` headers describe: the one nearest exhaustion (fewest
 * remaining), and on a tie the one that resets later, since it blocks longer. On a refusal
 * that is the refusing window (remaining 0), or the later of two refusing windows.
 */
export function nearestExhaustion(windows: readonly WindowReport[]): WindowReport {
  return windows.reduce((best, w) =>
    w.remaining < best.remaining ||
    (w.remaining === best.remaining && w.resetSeconds > best.resetSeconds)
      ? w
      : best,
  )
}

/** The rate-limit response headers: the legacy `X-RateLimit-*` trio and the IETF draft fields. */
export function rateLimitHeaders(
  rules: readonly WindowRule[],
  verdict: RateVerdict,
): Record<string, string> {
  const shown = nearestExhaustion(verdict.windows)
  return {
    [RATE_LIMIT_HEADERS.limit]: String(shown.limit),
    [RATE_LIMIT_HEADERS.remaining]: String(shown.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(shown.resetSeconds),
    // draft-ietf-httpapi-ratelimit-headers-11 (field syntax unchanged from -10): a List of
    // quota policies, then their state, as Structured Fields (RFC 9651).
    [RATE_LIMIT_HEADERS.policy]: policyField(rules),
    [RATE_LIMIT_HEADERS.state]: verdict.windows
      .map((w) => `"${w.name}";r=${w.remaining};t=${w.resetSeconds}`)
      .join(', '),
  }
}

/** `RateLimit-Policy` values by rules object: the middleware passes the same one every time. */
const policyFields = new WeakMap<readonly WindowRule[], string>()

function policyField(rules: readonly WindowRule[]): string {
  let field = policyFields.get(rules)
  if (field === undefined) {
    field = rules.map((r) => `"${r.name}";q=${r.limit};w=${r.periodSeconds}`).join(', ')
    policyFields.set(rules, field)
  }
  return field
}

/** The latest reset time of stored windows (ms), or undefined when none is stored. */
export function latestReset(stored: Readonly<Record<string, WindowState>>): number | undefined {
  const resets = Object.values(stored).map((state) => state.resetAt)
  return resets.length === 0 ? undefined : Math.max(...resets)
}

/** A window as of `now`: a lapsed or never-started one is empty and would start now. */
function currentState(rule: WindowRule, state: WindowState | undefined, now: number): WindowState {
  if (state !== undefined && now < state.resetAt) return state
  return { count: 0, resetAt: now + rule.periodSeconds * 1000 }
}

function report(rule: WindowRule, state: WindowState, now: number): WindowReport {
  return {
    name: rule.name,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - state.count),
    resetSeconds: secondsUntil(state.resetAt, now),
    resetAt: state.resetAt,
  }
}

/** `Retry-After` is whole seconds, rounded up, and at least 1 (docs/api.md#rate-limits). */
function retryAfter(at: number, now: number): number {
  return Math.max(1, secondsUntil(at, now))
}

function secondsUntil(at: number, now: number): number {
  return Math.ceil((at - now) / 1000)
}
