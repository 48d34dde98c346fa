/**
 * Refusals remembered in this isolate until the moment the limiter said the client would be
 * admitted again. While a client is refused nothing changes in its windows (a refusal counts
 * nowhere), so answering from memory until then gives the limiter's own answer. A client that
 * floods past its limit then no longer reaches its Durable Object, which stays responsive.
 * A refusal for requests in flight is not remembered: it ends as soon as a reservation lapses.
 *
 * A wide prefix's miss penalty (misses.ts) is remembered by wide prefix: every client of it but
 * those of an exempt network is refused from memory until it ends, a client never seen here with
 * its windows shown as fresh (this isolate does not know them; nothing counts while refused, and
 * the object would say the same of a client it does not know either). A prefix's penalty is not:
 * its object may let a clean client through (limits.ts), and an isolate cannot tell a clean
 * client from a stranger, since another isolate, or this one before an eviction, may have
 * served it. So each client of a penalized prefix asks its object until it is refused, and that
 * refusal is then remembered for it alone: a harvester's addresses reach the object once each.
 */
import { refusalAsOf, refuseUntil, type RateVerdict, type WindowRule } from './windows'

/** Bounds the memory of one isolate; the oldest entry of each map is forgotten first. */
export const MAX_REMEMBERED_REFUSALS = 10_000

/** The prefixes a client belongs to, and whether its network is exempt. */
export interface ClientPlace {
  key: string
  prefix: string
  /** Null: the key has no wide prefix (client-key.ts). */
  wide: string | null
  exempt: boolean
}

/** The refusals of one isolate, by client key and policy, and wide prefixes' penalties. */
export class RefusalMemory {
  private readonly refusals = new Map<string, RateVerdict>()
  private readonly penalties = new Map<string, number>()

  /** The standing refusal of the client at `place` under `rules` at `now`, or null. */
  recall(place: ClientPlace, rules: readonly WindowRule[], now: number): RateVerdict | null {
    const own = this.own(place.key, rules, now)
    if (place.exempt || place.wide === null) return own
    const wide = this.widePenalty(place.wide, now)
    if (wide === 0 || (own !== null && own.retryAt >= wide)) return own
    return refuseUntil(rules, {}, now, wide, { penalty: 'wide' })
  }

  /**
   * Remembers a refusal until its `retryAt`: for the client, and a wide prefix's penalty for all
   * its clients. A refusal for requests in flight is not remembered.
   */
  remember(place: ClientPlace, rules: readonly WindowRule[], refusal: RateVerdict): void {
    if (refusal.inFlight !== undefined) return
    if (refusal.penalty === 'wide') {
      if (place.wide !== null) this.rememberPenalty(place.wide, refusal.retryAt)
      return
    }
    bounded(this.refusals).set(memoryKey(place.key, rules), refusal)
  }

  /** Remembers that a wide prefix is penalized until `until` (ms). */
  rememberPenalty(wide: string, until: number): void {
    bounded(this.penalties).set(wide, until)
  }

  private own(key: string, rules: readonly WindowRule[], now: number): RateVerdict | null {
    const id = memoryKey(key, rules)
    const refusal = this.refusals.get(id)
    if (refusal === undefined) return null
    if (now >= refusal.retryAt) {
      this.refusals.delete(id)
      return null
    }
    return refusalAsOf(rules, refusal, now)
  }

  private widePenalty(wide: string, now: number): number {
    const until = this.penalties.get(wide)
    if (until === undefined) return 0
    if (now < until) return until
    this.penalties.delete(wide)
    return 0
  }
}

/** The map, with its oldest entry dropped if it is full. */
function bounded<V>(map: Map<string, V>): Map<string, V> {
  if (map.size >= MAX_REMEMBERED_REFUSALS) {
    const oldest = map.keys().next()
    if (!oldest.done) map.delete(oldest.value)
  }
  return map
}

/** The policy part of keys, by rules object: the middleware passes the same one every time. */
const policyKeys = new WeakMap<readonly WindowRule[], string>()

/** The policy is part of the key: a refusal under other limits says nothing about these. */
function memoryKey(key: string, rules: readonly WindowRule[]): string {
  let policy = policyKeys.get(rules)
  if (policy === undefined) {
    policy = rules.map((r) => `${r.limit}/${r.periodSeconds}`).join(' ')
    policyKeys.set(rules, policy)
  }
  return `${key} ${policy}`
}
