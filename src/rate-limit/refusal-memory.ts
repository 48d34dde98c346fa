/**
 * Refusals remembered in this isolate until the moment the limiter said the client would be
 * admitted again. While a client is refused nothing changes in its windows (a refusal counts
 * nowhere), so answering from memory until then gives the limiter's own answer. A client that
 * floods past its limit then no longer reaches its Durable Object, which stays responsive: the
 * flood cannot push it past the fail-open timeout and so get itself served unlimited.
 */
import { refusalAsOf, type RateVerdict, type WindowRule } from './windows'

/** Bounds the memory of one isolate; the oldest refusal is forgotten first. */
export const MAX_REMEMBERED_REFUSALS = 10_000

/** The refusals of one isolate, by client key and policy. */
export class RefusalMemory {
  private readonly refusals = new Map<string, RateVerdict>()

  /** The standing refusal of `key` under `rules` at `now`, or null when it has run out. */
  recall(key: string, rules: readonly WindowRule[], now: number): RateVerdict | null {
    const id = memoryKey(key, rules)
    const refusal = this.refusals.get(id)
    if (refusal === undefined) return null
    if (now >= refusal.retryAt) {
      this.refusals.delete(id)
      return null
    }
    return refusalAsOf(rules, refusal, now)
  }

  /** Remembers a refusal until its `retryAt`. */
  remember(key: string, rules: readonly WindowRule[], refusal: RateVerdict): void {
    if (this.refusals.size >= MAX_REMEMBERED_REFUSALS) {
      const oldest = this.refusals.keys().next()
      if (!oldest.done) this.refusals.delete(oldest.value)
    }
    this.refusals.set(memoryKey(key, rules), refusal)
  }
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
