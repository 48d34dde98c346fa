/**
 * Refusals remembered in this isolate until the moment the limiter said the client would be
 * admitted again. While a client is refused nothing changes in its windows (a refusal counts
 * nowhere), so answering from memory until then gives the limiter's own answer. A client that
 * floods past its limit then no longer reaches its Durable Object, which stays responsive: the
 * flood cannot push it past the fail-open timeout and so get itself served unlimited.
 *
 * A prefix's miss penalty (misses.ts) is remembered by prefix: every client of the prefix is
 * refused from memory until it ends, a client never seen here with its windows shown as fresh
 * (this isolate does not know them; nothing counts while refused, and the object would say the
 * same of a client it does not know either).
 */
import { refusalAsOf, refuseUntil, type RateVerdict, type WindowRule } from './windows'

/** Bounds the memory of one isolate; the oldest refusal is forgotten first. */
export const MAX_REMEMBERED_REFUSALS = 10_000

/** The refusals of one isolate, by client key and policy, and prefix penalties by prefix. */
export class RefusalMemory {
  private readonly refusals = new Map<string, RateVerdict>()
  private readonly penalties = new Map<string, number>()

  /** The standing refusal of `key` (of prefix `prefix`) under `rules` at `now`, or null. */
  recall(
    key: string,
    prefix: string,
    rules: readonly WindowRule[],
    now: number,
  ): RateVerdict | null {
    const own = this.own(key, rules, now)
    const until = this.prefixPenalty(prefix, now)
    if (until === 0 || (own !== null && own.retryAt >= until)) return own
    return refuseUntil(rules, {}, now, until, 'prefix')
  }

  /** Remembers a refusal until its `retryAt`; a prefix's penalty for all its clients. */
  remember(key: string, prefix: string, rules: readonly WindowRule[], refusal: RateVerdict): void {
    if (refusal.penalty === 'prefix') this.rememberPenalty(prefix, refusal.retryAt)
    else bounded(this.refusals).set(memoryKey(key, rules), refusal)
  }

  /** Remembers that the prefix is penalized until `until` (ms). */
  rememberPenalty(prefix: string, until: number): void {
    bounded(this.penalties).set(prefix, until)
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
