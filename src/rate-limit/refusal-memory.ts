/**
 * Refusals remembered in this isolate until the moment the limiter said the client would be
 * admitted again. While a client is refused nothing changes in its windows (a refusal counts
 * nowhere), so answering from memory until then gives the limiter's own answer. A client that
 * floods past its limit then no longer reaches its Durable Object, which stays responsive.
 * A refusal for requests in flight is not remembered: it ends as soon as a reservation lapses.
 *
 * A prefix's or a wide prefix's miss penalty (misses.ts) is remembered by prefix: every client of
 * it is refused from memory until it ends, a client never seen here with its windows shown as
 * fresh (this isolate does not know them; nothing counts while refused, and the object would say
 * the same of a client it does not know either). Two kinds of client still ask their object:
 * one of an exempt network (no prefix penalty applies to it), and, under a prefix's (not a wide
 * prefix's) penalty, one this isolate saw admitted within its windows, which the object may let
 * through as clean (limits.ts); the object's refusal of it is then remembered for it alone.
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

/** The refusals of one isolate, by client key and policy, and prefix penalties by prefix. */
export class RefusalMemory {
  private readonly refusals = new Map<string, RateVerdict>()
  private readonly penalties = new Map<string, number>()
  /** Client keys admitted here, until their windows lapse (ms). */
  private readonly admitted = new Map<string, number>()

  /** The standing refusal of the client at `place` under `rules` at `now`, or null. */
  recall(place: ClientPlace, rules: readonly WindowRule[], now: number): RateVerdict | null {
    const own = this.own(place.key, rules, now)
    if (place.exempt) return own
    const wide = place.wide === null ? 0 : this.prefixPenalty(place.wide, now)
    const prefix = this.knownHere(place.key, now) ? 0 : this.prefixPenalty(place.prefix, now)
    const until = Math.max(wide, prefix)
    if (until === 0 || (own !== null && own.retryAt >= until)) return own
    return refuseUntil(rules, {}, now, until, { penalty: wide >= prefix ? 'wide' : 'prefix' })
  }

  /**
   * Remembers a refusal until its `retryAt`: for the client, and a prefix's or wide prefix's
   * penalty for all its clients. A refusal for requests in flight is not remembered.
   */
  remember(place: ClientPlace, rules: readonly WindowRule[], refusal: RateVerdict): void {
    if (refusal.inFlight !== undefined) return
    if (refusal.penalty === 'wide') {
      if (place.wide !== null) this.rememberPenalty(place.wide, refusal.retryAt)
      return
    }
    if (refusal.penalty === 'prefix') this.rememberPenalty(place.prefix, refusal.retryAt)
    bounded(this.refusals).set(memoryKey(place.key, rules), refusal)
  }

  /** Remembers that a prefix (or a wide prefix) is penalized until `until` (ms). */
  rememberPenalty(prefix: string, until: number): void {
    bounded(this.penalties).set(prefix, until)
  }

  /** Remembers that the client was admitted, until the last of its windows resets. */
  rememberAdmitted(key: string, verdict: RateVerdict): void {
    const until = Math.max(0, ...verdict.windows.map((w) => w.resetAt))
    this.admitted.delete(key)
    bounded(this.admitted).set(key, until)
  }

  private knownHere(key: string, now: number): boolean {
    const until = this.admitted.get(key)
    if (until === undefined) return false
    if (now < until) return true
    this.admitted.delete(key)
    return false
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

  private prefixPenalty(prefix: string, now: number): number {
    const until = this.penalties.get(prefix)
    if (until === undefined) return 0
    if (now < until) return until
    this.penalties.delete(prefix)
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
