/**
 * The whole limit of one client inside its prefix: its two request windows (windows.ts), its
 * own, its prefix's and its wide prefix's miss penalties (misses.ts), and the requests in flight
 * that may still turn out to be misses. Pure functions of the records, the policy and the time:
 * the rate-limit object (rate-limiter.ts) keeps the records and applies them, and the bench's
 * harvest simulation drives the same functions with simulated time.
 *
 * A request is refused while the client, its prefix or its wide prefix is penalized, hits and
 * misses alike, and then counts nowhere; else the windows decide as they always have. Every
 * admitted request counts in both windows, whatever its answer. Two exceptions to the prefix's
 * penalty (docs/rate-limits.md#clean-neighbours): a client of an exempt network is held to its
 * own budget only, and a clean client (known, most of its requests found an export) is served
 * through it, the clean clients of the prefix together missing at most a client's budget per
 * penalty.
 *
 * Bursts (docs/rate-limits.md#bursts): a miss is counted after its answer, so an admitted request
 * holds a reservation until its miss is reported or it lapses (in-flight.ts). A party is admitted
 * only while its misses and its reservations together stay within its budget plus one: however
 * many requests arrive at once, no more misses can be answered than the budget and the breach.
 */
import {
  countMiss,
  missesForgetAt,
  missesInWindow,
  penaltyEnd,
  type MissSettings,
  type MissState,
} from './misses'
import {
  decide,
  latestReset,
  refuseUntil,
  type MissLevel,
  type RateVerdict,
  type RefusalReason,
  type WindowRule,
} from './windows'
import type { WindowState } from './windows'

/** The rules a request is held to: the request windows and the miss limit. */
export interface LimitPolicy {
  rules: WindowRule[]
  misses: MissSettings
}

/** What is kept of one client (an IPv4 address, an IPv6 /64). */
export interface ClientRecord {
  /** The request windows by name, as windows.ts keeps them. */
  windows: Record<string, WindowState>
  /** The client's misses; absent until its first. */
  misses?: MissState
}

/** Requests of one party admitted and not yet reported as misses, and when the first lapses. */
export interface InFlight {
  count: number
  /** When the oldest reservation lapses (ms); 0 when none is held. */
  firstLapseAt: number
}

/** What the object knows of a request beside the records: its standing and what is in flight. */
export interface AdmissionContext {
  /** The client is in an exempt network: only its own misses count and penalize it. */
  exempt?: boolean
  /** When the wide prefix's penalty ends, as the object last heard (ms); 0: none known. */
  widePenaltyUntil?: number
  clientInFlight?: InFlight
  prefixInFlight?: InFlight
  /**
   * The client's record that lapsed within the last long window, when it has no live one: a
   * client that was clean is still known, so a neighbour whose windows roll over during its
   * network's penalty is not taken for a stranger.
   */
  lapsedClient?: ClientRecord
  /**
   * An isolate that answered the client lately vouches that it was clean there: without a
   * record here (the object forgot it), it is taken for a clean client, not a stranger.
   */
  vouched?: boolean
}

const NOTHING_IN_FLIGHT: InFlight = { count: 0, firstLapseAt: 0 }

/** The verdict on a request at `now`, and the client's record after it (null: unchanged). */
export function admit(
  client: ClientRecord | undefined,
  prefix: MissState | undefined,
  policy: LimitPolicy,
  now: number,
  context: AdmissionContext = {},
): { verdict: RateVerdict; client: ClientRecord | null } {
  const windows = client?.windows ?? {}
  if (policy.misses.enabled) {
    const refusal = missRefusal(client, prefix, policy, now, context)
    if (refusal !== null) {
      return {
        verdict: refuseUntil(policy.rules, windows, now, refusal.until, refusal.reason),
        client: null,
      }
    }
  }
  const { verdict, next } = decide(policy.rules, windows, now)
  if (next === null) return { verdict, client: null }
  return {
    verdict,
    client: client?.misses ? { windows: next, misses: client.misses } : { windows: next },
  }
}

/** Why the miss limit refuses a request, and until when; null: it does not. */
function missRefusal(
  client: ClientRecord | undefined,
  prefix: MissState | undefined,
  policy: LimitPolicy,
  now: number,
  context: AdmissionContext,
): { until: number; reason: RefusalReason } | null {
  const settings = policy.misses
  const exempt = context.exempt === true
  const clientInFlight = context.clientInFlight ?? NOTHING_IN_FLIGHT
  const prefixInFlight = context.prefixInFlight ?? NOTHING_IN_FLIGHT
  const through =
    !exempt &&
    strained(prefix, settings, now) &&
    throughPenalty(
      client ?? context.lapsedClient,
      context.vouched === true,
      prefix,
      settings,
      now,
      prefixInFlight,
    )
  const penalties: [MissLevel, number][] = [['client', penaltyEnd(client?.misses, now)]]
  if (!exempt) {
    const wide = context.widePenaltyUntil ?? 0
    penalties.push(['wide', wide > now ? wide : 0])
    if (!through) penalties.push(['prefix', penaltyEnd(prefix, now)])
  }
  const [level, until] = penalties.reduce((latest, p) => (p[1] > latest[1] ? p : latest))
  if (until !== 0) return { until, reason: { penalty: level } }

  if (!withinBudget(client?.misses, settings.client.budget, clientInFlight, now)) {
    return { until: clientInFlight.firstLapseAt, reason: { inFlight: 'client' } }
  }
  if (!exempt && !through && !withinBudget(prefix, settings.prefix.budget, prefixInFlight, now)) {
    return { until: prefixInFlight.firstLapseAt, reason: { inFlight: 'prefix' } }
  }
  return null
}

/**
 * Whether one more request may be in flight: the party's misses in its window and its requests
 * in flight, each of which may be a miss, stay within its budget, and one more is always allowed
 * when none is in flight (the miss past the budget is the breach, misses.ts). So at most the
 * budget and the breach are answered in a window, however many requests arrive together.
 */
function withinBudget(
  misses: MissState | undefined,
  budget: number,
  inFlight: InFlight,
  now: number,
): boolean {
  return inFlight.count <= Math.max(0, budget - missesInWindow(misses, now))
}

/** Whether the prefix is penalized or has spent its budget in the current window. */
export function strained(
  prefix: MissState | undefined,
  settings: MissSettings,
  now: number,
): boolean {
  return penaltyEnd(prefix, now) !== 0 || missesInWindow(prefix, now) >= settings.prefix.budget
}

/**
 * Whether a client is let through its prefix's penalty, or past its spent budget: it is clean
 * (below), or has no record here and an isolate that answered it lately vouches for it, and the
 * clean clients of the prefix have missed, with the prefix's requests in flight, no more than
 * one client's budget since the prefix's last breach. A stranger (no record, nobody vouching) is
 * never clean: it cannot become known while refused, so a penalty cannot be waited out with
 * fresh addresses.
 */
function throughPenalty(
  client: ClientRecord | undefined,
  vouched: boolean,
  prefix: MissState | undefined,
  settings: MissSettings,
  now: number,
  inFlight: InFlight,
): boolean {
  if (client === undefined ? !vouched : !isClean(client, now)) return false
  return (prefix?.missesInPenalty ?? 0) + inFlight.count <= settings.client.budget
}

/**
 * Known and mostly finding exports: a plugin server that mistypes now and then. Its requests
 * are those of its fullest window, and a record that has lapsed (all its windows with it) is
 * judged by what it held last, as `lapsedClient` of AdmissionContext is.
 */
export function isClean(client: ClientRecord, now: number): boolean {
  const windows = Object.values(client.windows)
  const live = windows.some((w) => now < w.resetAt)
  const requests = Math.max(0, ...windows.map((w) => (!live || now < w.resetAt ? w.count : 0)))
  const misses = live ? missesInWindow(client.misses, now) : (client.misses?.count ?? 0)
  return requests > 0 && penaltyEnd(client.misses, now) === 0 && misses * 2 < requests
}

/**
 * The records after a miss at `now`: it counts for the client and for its prefix (the object
 * leaves the prefix as it was for a client of an exempt network). Null when the miss limit is
 * off: nothing changes.
 */
export function miss(
  client: ClientRecord | undefined,
  prefix: MissState | undefined,
  policy: LimitPolicy,
  now: number,
): { client: ClientRecord; prefix: MissState } | null {
  const settings = policy.misses
  if (!settings.enabled) return null
  return {
    client: {
      windows: client?.windows ?? {},
      misses: countMiss(client?.misses, settings.client, settings, now),
    },
    prefix: countMiss(prefix, settings.prefix, settings, now),
  }
}

/** When nothing of the client's record matters any more (ms): windows lapsed, misses forgotten. */
export function clientForgetAt(client: ClientRecord, policy: LimitPolicy): number {
  return Math.max(
    latestReset(client.windows) ?? 0,
    missesForgetAt(client.misses, policy.misses.client),
  )
}

/** When nothing of the prefix's misses matters any more (ms). */
export function prefixForgetAt(prefix: MissState, policy: LimitPolicy): number {
  return missesForgetAt(prefix, policy.misses.prefix)
}
