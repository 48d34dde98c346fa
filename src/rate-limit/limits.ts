/**
 * The whole limit of one client inside its prefix: its two request windows (windows.ts), and
 * its own and its prefix's miss penalties (misses.ts). Pure functions of the records, the
 * policy and the time: the rate-limit object (rate-limiter.ts) keeps the records and applies
 * them, and the bench's harvest simulation drives the same functions with simulated time.
 *
 * A request is refused while the client or its prefix is penalized, hits and misses alike, and
 * then counts nowhere; else the windows decide as they always have. Every admitted request
 * counts in both windows, whatever its answer.
 */
import { countMiss, missesForgetAt, penaltyEnd, type MissSettings, type MissState } from './misses'
import { decide, latestReset, refuseUntil, type RateVerdict, type WindowRule } from './windows'
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

/** The verdict on a request at `now`, and the client's record after it (null: unchanged). */
export function admit(
  client: ClientRecord | undefined,
  prefix: MissState | undefined,
  policy: LimitPolicy,
  now: number,
): { verdict: RateVerdict; client: ClientRecord | null } {
  const windows = client?.windows ?? {}
  if (policy.misses.enabled) {
    const own = penaltyEnd(client?.misses, now)
    const wide = penaltyEnd(prefix, now)
    if (own !== 0 || wide !== 0) {
      const penalty = wide > own ? 'prefix' : 'client'
      return {
        verdict: refuseUntil(policy.rules, windows, now, Math.max(own, wide), penalty),
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

/**
 * The records after a miss at `now`: it counts for the client and for its prefix. Null when the
 * miss limit is off: nothing changes.
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
