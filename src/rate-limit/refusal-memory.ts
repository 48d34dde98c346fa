/**
 * Refusals remembered in this isolate until the moment the limiter said the client would be
 * admitted again. While a client is refused nothing changes in its windows (a refusal counts
 * nowhere), so answering from memory until then gives the limiter's own answer. A client that
 * floods past its limit then no longer reaches its Durable Object, which stays responsive.
 * A refusal for a full burst room is not remembered: it ends as soon as its neighbours' requests
 * are answered (network-gate.ts).
 *
 * A network's penalty is not remembered by network here: a clean client is let through it
 * (limits.ts), and only the client's object knows whether it is clean. So each client of a
 * penalized network asks its object until it is refused, and that refusal is then remembered for
 * it alone: a harvester's addresses reach their objects once each.
 */
import type { ClientAddress } from './client-key'
import { refusalAsOf, type RateVerdict, type WindowRule } from './windows'

/** Bounds the memory of one isolate; the oldest entry is forgotten first. */
export const MAX_REMEMBERED_REFUSALS = 10_000

/** A client's address (its key and its network's), and whether its network is exempt. */
export interface ClientPlace extends ClientAddress {
  readonly exempt: boolean
}

/** The refusals of one isolate, by client key and policy. */
export class RefusalMemory {
  readonly #refusals = new Map<string, RateVerdict>()

  /** The standing refusal of the client at `place` under `rules` at `now`, or null. */
  recall(place: ClientPlace, rules: readonly WindowRule[], now: number): RateVerdict | null {
    const id = memoryKey(place.key, rules)
    const refusal = this.#refusals.get(id)
    if (refusal === undefined) return null
    if (now >= refusal.retryAt) {
      this.#refusals.delete(id)
      return null
    }
    return refusalAsOf(rules, refusal, now)
  }

  /** Remembers a refusal until its `retryAt`; a refusal for a full burst room is not. */
  remember(place: ClientPlace, rules: readonly WindowRule[], refusal: RateVerdict): void {
    if (refusal.inFlight !== undefined) return
    if (this.#refusals.size >= MAX_REMEMBERED_REFUSALS) {
      const oldest = this.#refusals.keys().next()
      if (!oldest.done) this.#refusals.delete(oldest.value)
    }
    this.#refusals.set(memoryKey(place.key, rules), refusal)
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
