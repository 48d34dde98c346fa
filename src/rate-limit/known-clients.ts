/**
 * Clients this isolate has answered lately, and how (docs/rate-limits.md#clean-neighbours): for
 * each, its admitted requests and its misses within one long window from the first. An object
 * forgets a client that asks less often than every 10 s (it is evicted between requests, and a
 * lone request is never written), but the isolates that served it remember: a client whose
 * requests here mostly found exports is vouched for in its next call, and its object, if it holds
 * no record of it, takes it for a clean neighbour rather than a stranger. The object's own
 * record, when it has one, decides instead.
 */

/** Bounds the memory of one isolate; the oldest entry is forgotten first. */
const MAX_KNOWN_CLIENTS = 10_000

/** What this isolate saw of one client, until `until` (ms). */
interface Seen {
  requests: number
  misses: number
  until: number
}

export class KnownClients {
  readonly #clients = new Map<string, Seen>()

  /** Notes an admitted request of `key` answered at `now`, a miss or not; kept `keepMs`. */
  answered(key: string, miss: boolean, now: number, keepMs: number): void {
    let seen = this.#live(key, now)
    if (seen === undefined) {
      if (this.#clients.size >= MAX_KNOWN_CLIENTS) {
        const oldest = this.#clients.keys().next()
        if (!oldest.done) this.#clients.delete(oldest.value)
      }
      seen = { requests: 0, misses: 0, until: now + keepMs }
      this.#clients.set(key, seen)
    }
    seen.requests++
    if (miss) seen.misses++
  }

  /** Whether this isolate vouches for `key` at `now`: answered here, fewer than half misses. */
  vouches(key: string, now: number): boolean {
    const seen = this.#live(key, now)
    return seen !== undefined && seen.misses * 2 < seen.requests
  }

  #live(key: string, now: number): Seen | undefined {
    const seen = this.#clients.get(key)
    if (seen === undefined) return undefined
    if (now < seen.until) return seen
    this.#clients.delete(key)
    return undefined
  }
}
