/**
 * The whole limit of one client, as its object holds it: its two request windows (windows.ts),
 * its own miss penalty (misses.ts), and what the isolate says of its network (protocol.ts). Pure
 * functions of the record, the policy and the time: the rate-limit object (rate-limiter.ts) keeps
 * the record and applies them.
 *
 * A request is refused while the client is penalized, hits and misses alike, and then counts
 * nowhere; else the windows decide as they always have. Every admitted request counts in both
 * windows, whatever its answer. Every refusal is decided here, at admission, before the route has
 * read anything: none can depend on whether the ID is live.
 *
 * The network (docs/rate-limits.md#misses): while it is penalized, or its burst room in the
 * calling isolate is full (network-gate.ts), a client that is not clean (a stranger, a guesser) is
 * refused. A clean client (known, most of its requests found an export) is served through its
 * network's penalty while its pass is open, and its network's burst room never holds it: its hits
 * are not refused for what its neighbours do. A client of an exempt network is held to its own
 * limits only.
 */
import type { ClientVerdict, NetworkHint } from './protocol'
import {
  countMiss,
  missesForgetAt,
  missesInWindow,
  penaltyEnd,
  type MissSettings,
  type MissState,
} from './misses'
import { decide, latestReset, refuseUntil, type RefusalReason, type WindowRule } from './windows'
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
  /** Its requests admitted, and how many of them are settled; absent in older records. */
  settled?: Settled
}

/**
 * How long after its admission a request's miss, if it was one, has surely been counted: the
 * route's KV read (3 s) and the allocator (2 s), then the counts (1 s), with room to spare.
 */
export const SETTLE_SECONDS = 10
const SETTLE_MS = SETTLE_SECONDS * 1000

/**
 * A client's requests, and those admitted long enough ago that their misses are all counted:
 * whether a client is clean is judged on those, so a burst whose misses are still being read
 * does not pass for clean. Kept with a mark: `marked` requests had been admitted by `markAt`.
 */
export interface Settled {
  /** Requests admitted while the record lives. */
  admitted: number
  /** Of those, admitted at least SETTLE_SECONDS ago (at the last look). */
  requests: number
  markAt: number
  marked: number
  /** When the last request was admitted (ms). */
  lastAt: number
}

/** The client's requests as settled at `now`. */
function settledAt(client: ClientRecord | undefined, now: number): Settled {
  const before = client?.settled ?? olderRecord(client, now)
  if (now - before.lastAt >= SETTLE_MS) {
    return { ...before, requests: before.admitted, markAt: now, marked: before.admitted }
  }
  if (now - before.markAt < SETTLE_MS) return before
  const requests = Math.max(before.requests, before.marked)
  return { ...before, requests, markAt: now, marked: before.admitted }
}

/** A record written before requests were settled: all its requests are, long since. */
function olderRecord(client: ClientRecord | undefined, now: number): Settled {
  const requests = Math.max(0, ...Object.values(client?.windows ?? {}).map((w) => w.count))
  return { admitted: requests, requests, markAt: now, marked: requests, lastAt: 0 }
}

/** What the object knows of a request beside the record. */
export interface AdmissionContext {
  /** The client is in an exempt network: only its own misses count and penalize it. */
  exempt?: boolean
  /** The network's state as the calling isolate knows it. */
  network?: NetworkHint
  /**
   * The client's record that lapsed within the last long window, when it has no live one: a
   * client that was clean is still known, so a client whose windows roll over during its
   * network's penalty is not taken for a stranger.
   */
  lapsedClient?: ClientRecord
  /**
   * An isolate that answered the client lately vouches that it was clean there: without a
   * record here (the object forgot it), it is taken for a clean client, not a stranger.
   */
  vouched?: boolean
}

/** The verdict on a request at `now`, and the client's record after it (null: unchanged). */
export function admit(
  client: ClientRecord | undefined,
  policy: LimitPolicy,
  now: number,
  context: AdmissionContext = {},
): { verdict: ClientVerdict; client: ClientRecord | null } {
  const windows = client?.windows ?? {}
  const clean = knownClean(client ?? context.lapsedClient, context.vouched === true, now)
  const settled = settledAt(client, now)
  if (policy.misses.enabled) {
    const refusal = missRefusal(client, clean, now, context)
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
    verdict: clean ? { ...verdict, clean } : verdict,
    client: {
      windows: next,
      ...(client?.misses ? { misses: client.misses } : {}),
      settled: { ...settled, admitted: settled.admitted + 1, lastAt: now },
    },
  }
}

/** Why the miss limit refuses a request, and until when; null: it does not. */
function missRefusal(
  client: ClientRecord | undefined,
  clean: boolean,
  now: number,
  context: AdmissionContext,
): { until: number; reason: RefusalReason } | null {
  const own = penaltyEnd(client?.misses, now)
  const network = context.exempt === true ? undefined : context.network
  const networkPenalty =
    network !== undefined && network.penaltyUntil > now && (!clean || network.passClosed)
      ? network.penaltyUntil
      : 0
  if (own !== 0 || networkPenalty !== 0) {
    return own >= networkPenalty
      ? { until: own, reason: { penalty: 'client' } }
      : { until: networkPenalty, reason: { penalty: 'prefix' } }
  }
  if (network !== undefined && !clean && network.fullUntil > now) {
    return { until: network.fullUntil, reason: { inFlight: 'prefix' } }
  }
  return null
}

/**
 * A clean client by its record, or one an isolate vouches for (it answered the client lately,
 * mostly with exports): with no record here, or a record whose misses are fewer than half of its
 * requests, settled or not (another isolate may have answered the rest).
 */
function knownClean(client: ClientRecord | undefined, vouched: boolean, now: number): boolean {
  if (client === undefined) return vouched
  if (isClean(client, now)) return true
  return (
    vouched &&
    penaltyEnd(client.misses, now) === 0 &&
    missesOf(client, now) * 2 < settledAt(client, now).admitted
  )
}

/**
 * Known and mostly finding exports: a plugin server that mistypes now and then. Its misses are
 * fewer than half of its settled requests (those whose misses are all counted), and a record that
 * has lapsed (all its windows with it) is judged by what it held last, as `lapsedClient` of
 * AdmissionContext is.
 */
export function isClean(client: ClientRecord, now: number): boolean {
  const requests = settledAt(client, now).requests
  return (
    requests > 0 && penaltyEnd(client.misses, now) === 0 && missesOf(client, now) * 2 < requests
  )
}

/** The client's misses in its window, or, for a record whose windows lapsed, as it held them. */
function missesOf(client: ClientRecord, now: number): number {
  const live = Object.values(client.windows).some((w) => now < w.resetAt)
  return live ? missesInWindow(client.misses, now) : (client.misses?.count ?? 0)
}

/** The client's record after a miss at `now`; null when the miss limit is off. */
export function clientMiss(
  client: ClientRecord | undefined,
  policy: LimitPolicy,
  now: number,
): ClientRecord | null {
  const settings = policy.misses
  if (!settings.enabled) return null
  return {
    ...client,
    windows: client?.windows ?? {},
    misses: countMiss(client?.misses, settings.client, settings, now),
  }
}

/**
 * The network's misses after a miss at `now` of a client that is `clean` or not; null when the
 * miss limit is off. Only a clean client's miss during the penalty counts against its pass.
 */
export function networkMiss(
  network: MissState | undefined,
  policy: LimitPolicy,
  now: number,
  clean: boolean,
): MissState | null {
  const settings = policy.misses
  if (!settings.enabled) return null
  const after = countMiss(network, settings.prefix, settings, now)
  if (clean || penaltyEnd(network, now) === 0) return after
  const { missesInPenalty, ...rest } = after
  const before = network?.missesInPenalty
  return before === undefined ? rest : { ...rest, missesInPenalty: before }
}

/**
 * Whether a network's clean clients have missed their share of its current penalty: a client's
 * budget and one more. Past it, the penalty refuses them too, so that however many clean clients
 * a network prepares, they add at most that many misses per penalty.
 */
export function passClosed(network: MissState, settings: MissSettings, now: number): boolean {
  return penaltyEnd(network, now) !== 0 && (network.missesInPenalty ?? 0) > settings.client.budget
}

/** When nothing of the client's record matters any more (ms): windows lapsed, misses forgotten. */
export function clientForgetAt(client: ClientRecord, policy: LimitPolicy): number {
  return Math.max(
    latestReset(client.windows) ?? 0,
    missesForgetAt(client.misses, policy.misses.client),
  )
}

/** When nothing of the network's misses matters any more (ms). */
export function prefixForgetAt(prefix: MissState, policy: LimitPolicy): number {
  return missesForgetAt(prefix, policy.misses.prefix)
}
