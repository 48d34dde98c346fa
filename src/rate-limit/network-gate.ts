/**
 * What this isolate knows of each network's misses, and its burst room (docs/rate-limits.md#bursts).
 *
 * A request's liveness is unknown until the route has read its ID, and a request once admitted is
 * answered as what it is: so the only way to keep a burst's misses within a network's budget,
 * without a refusal that depends on the ID, is to bound at admission the requests that could
 * still turn out to be misses. Each isolate holds, per network, the requests in flight of clients
 * not known to be clean (strangers, guessers): at most what is left of the network's budget and
 * one more (the breach), as the network's object last counted it, or one at a time once it is
 * spent. Past that such a client is refused at admission for a few seconds (counting nowhere).
 * A clean client is never held by it: its hits are not refused for what its neighbours do.
 *
 * What the network's object answers to each miss (protocol.ts) is kept here: its misses in its
 * window, its penalty and whether its clean clients' pass is closed, handed to the client objects
 * in their next calls. A miss the network's object could not count is counted here instead, so
 * that an overloaded object gives away no more than the budget in this isolate.
 */
import type { MissBudget } from './misses'
import type { NetworkHint, NetworkMissCount } from './protocol'

/** How long a client refused for a full burst room waits: its neighbours' answers are out by then. */
export const BURST_RETRY_SECONDS = 10

/** Bounds the memory of one isolate; the oldest network is forgotten first. */
const MAX_NETWORKS = 10_000

/** One network as this isolate knows it. */
interface Known {
  /** Misses in the window that resets at `resetAt`, as its object counted them. */
  misses: number
  resetAt: number
  /** Misses its object could not count, counted here in a window that resets at `localResetAt`. */
  uncounted: number
  localResetAt: number
  penaltyUntil: number
  passClosed: boolean
  /** Requests of clients not known to be clean, admitted or being decided, not yet answered. */
  inFlight: number
}

/** A place in a network's burst room, held until its request is answered. */
export interface Slot {
  release(): void
}

const NO_SLOT: Slot = { release: () => {} }

export class NetworkGate {
  readonly #networks = new Map<string, Known>()

  /**
   * What to tell the client's object of `network` (whose budget is `budget`) for a request at
   * `now`, and the place the request takes in its burst room: none when the room is full (the
   * hint says so; a clean client is admitted all the same and needs none).
   */
  enter(network: string, budget: number, now: number): { hint: NetworkHint; slot: Slot } {
    const known = this.#known(network, now)
    const misses =
      (now < known.resetAt ? known.misses : 0) + (now < known.localResetAt ? known.uncounted : 0)
    const room = Math.max(1, budget + 1 - misses)
    const full = known.inFlight >= room
    const hint: NetworkHint = {
      penaltyUntil: known.penaltyUntil > now ? known.penaltyUntil : 0,
      passClosed: known.passClosed,
      fullUntil: full ? now + BURST_RETRY_SECONDS * 1000 : 0,
      strained: known.penaltyUntil > now || misses >= budget,
    }
    if (full) return { hint, slot: NO_SLOT }
    known.inFlight++
    let held = true
    return {
      hint,
      slot: {
        release: () => {
          if (held) known.inFlight--
          held = false
        },
      },
    }
  }

  /** Learns what the network's object said once it counted a miss. */
  counted(network: string, count: NetworkMissCount, now: number): void {
    const known = this.#known(network, now)
    if (count.resetAt > known.resetAt || now >= known.resetAt) {
      known.misses = count.misses
      known.resetAt = count.resetAt
    } else if (count.resetAt === known.resetAt) {
      known.misses = Math.max(known.misses, count.misses)
    }
    if (count.penaltyUntil >= known.penaltyUntil) {
      known.penaltyUntil = count.penaltyUntil
      known.passClosed = count.passClosed
    }
  }

  /**
   * Counts here a miss the network's object could not count. Past the budget, this isolate
   * penalizes the network itself (its strangers and guessers) for the first penalty: an object
   * that cannot count gives away no more than the budget here.
   */
  uncounted(network: string, now: number, budget: MissBudget, firstPenaltyMs: number): void {
    const known = this.#known(network, now)
    if (now >= known.localResetAt) {
      known.uncounted = 0
      known.localResetAt = now + budget.windowSeconds * 1000
    }
    known.uncounted++
    const misses = known.uncounted + (now < known.resetAt ? known.misses : 0)
    if (misses > budget.budget && known.penaltyUntil <= now) {
      known.penaltyUntil = now + firstPenaltyMs
    }
  }

  #known(network: string, now: number): Known {
    let known = this.#networks.get(network)
    if (known === undefined) {
      if (this.#networks.size >= MAX_NETWORKS) this.#forgetOne(now)
      known = {
        misses: 0,
        resetAt: 0,
        uncounted: 0,
        localResetAt: 0,
        penaltyUntil: 0,
        passClosed: false,
        inFlight: 0,
      }
      this.#networks.set(network, known)
    }
    return known
  }

  /** Forgets the oldest network with nothing in flight and nothing current, or else the oldest. */
  #forgetOne(now: number): void {
    for (const [name, known] of this.#networks) {
      const current = Math.max(known.resetAt, known.localResetAt, known.penaltyUntil) > now
      if (known.inFlight === 0 && !current) {
        this.#networks.delete(name)
        return
      }
    }
    const oldest = this.#networks.keys().next()
    if (!oldest.done) this.#networks.delete(oldest.value)
  }
}
