/**
 * What the Worker's isolate and the rate-limit objects exchange over RPC (docs/rate-limits.md):
 * the calls' arguments beside the client key and the policy, and their answers. Types only, so
 * that the isolate's side (middleware.ts, network-gate.ts) needs nothing of the object's module.
 *
 * Two kinds of object, one class (rate-limiter.ts), named by what they count:
 * - a client's object (an IPv4 address, an IPv6 /64), asked once per request at admission
 *   (`hit`): the client's windows, its misses and its penalty. A neighbour's requests never
 *   reach it.
 * - a network's object (an IPv4 /24, an IPv6 /48), asked only once the route has found that no
 *   export is here, before the miss is answered (`networkMiss`): the network's misses and its
 *   penalty. It counts every miss it is asked about and refuses none: a miss is answered as what
 *   it is once admitted, so no refusal can depend on whether the ID is live.
 * The client's own miss is counted by its object (`miss`) at the same moment.
 */
import type { RateVerdict } from './windows'

/** What the isolate knows of a request's network, as its last answers said (network-gate.ts). */
export interface NetworkHint {
  /** The network is penalized until then (ms since the epoch); 0: not, as far as known. */
  penaltyUntil: number
  /** Its clean clients have missed their share of the penalty: they are refused too. */
  passClosed: boolean
  /**
   * Its requests in flight from clients not known to be clean already hold all that is left of
   * its miss budget in this isolate: such a client is refused until `fullUntil` (ms).
   */
  fullUntil: number
  /** The network is penalized or has spent its budget in its current window, as far as known. */
  strained: boolean
}

/** What the Worker knows of a request beside its client key. */
export interface RequestStanding {
  /** The client is in an exempt network (exempt-networks.ts): no network holds it. */
  exempt?: boolean
  /**
   * The calling isolate answered the client lately, mostly with exports (known-clients.ts): if
   * its object holds no record of it, it is a clean client, not a stranger.
   */
  vouched?: boolean
  /** The network's state, as the calling isolate knows it; absent: nothing known. */
  network?: NetworkHint
}

/** A client object's verdict on a request. */
export type ClientVerdict = RateVerdict & {
  /**
   * The client is clean (known, most of its requests found exports, not penalized): its
   * network's burst room does not hold it, and it is served through its network's penalty while
   * the pass is open.
   */
  clean?: boolean
}

/** What a client's miss leaves: when its penalty ends (ms since the epoch; 0: none). */
export interface ClientMissCount {
  penaltyUntil: number
}

/** What a network's object says once it has counted a miss. */
export interface NetworkMissCount {
  /** Misses counted in the network's current window, this one included. */
  misses: number
  /** When that window resets (ms since the epoch). */
  resetAt: number
  /** When the network's penalty ends (ms); 0: not penalized. */
  penaltyUntil: number
  /** Its clean clients have missed their share of the current penalty. */
  passClosed: boolean
}

/** What a client's miss report says beside the client key. */
export interface MissContext {
  /**
   * The client's network was penalized or had spent its budget when the miss was counted (its
   * object's answer, or as the isolate knew): a clean client's record is then written at once,
   * since it is what lets the client through, and must outlive an eviction.
   */
  networkStrained?: boolean
}
