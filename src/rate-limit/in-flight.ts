/**
 * Reservations of one rate-limit object (docs/rate-limits.md#bursts): for each party (a client
 * record, the prefix), how many admitted requests may still turn out to be misses. A request
 * reserves its possible miss when it is admitted; its miss report turns the reservation into a
 * count (rate-limiter.ts), and a hit, which is never reported (a hit costs one call), lets it
 * lapse after RESERVATION_SECONDS.
 *
 * Held in memory only: a reservation outlives no request, and an eviction (10 s without a
 * call) comes after every reservation has lapsed. Counts are kept per second of admission, so a
 * party holds at most RESERVATION_SECONDS + 1 numbers however many requests it sends.
 */
import type { InFlight } from './limits'

/**
 * How long an admitted request holds its reservation: longer than the longest way from an
 * admission to its miss report (the KV read's 3 s, the allocator's 2 s, the wide prefix's
 * answer's 1 s, then the report's 2 s, middleware.ts), so that every miss is either reported or still reserved, and short
 * enough that a client's hits free their reservations well within its short window.
 */
export const RESERVATION_SECONDS = 10
const RESERVATION_MS = RESERVATION_SECONDS * 1000

/** Parties held at which lapsed ones are swept, then twice as many as were left. */
const SWEEP_FROM = 1024

export class Reservations {
  /** Per party: admissions by the second (since the epoch) they were made in. */
  private readonly parties = new Map<string, Map<number, number>>()
  private sweepAt = SWEEP_FROM

  /** Reserves a possible miss of `party` admitted at `now`. */
  reserve(party: string, now: number): void {
    let seconds = this.parties.get(party)
    if (seconds === undefined) {
      if (this.parties.size >= this.sweepAt) this.sweep(now)
      seconds = new Map()
      this.parties.set(party, seconds)
    }
    const second = Math.floor(now / 1000)
    seconds.set(second, (seconds.get(second) ?? 0) + 1)
  }

  /** Gives back the reservation `party` made at `reservedAt`, if it has not lapsed. */
  release(party: string, reservedAt: number): void {
    const seconds = this.parties.get(party)
    if (seconds === undefined) return
    const second = Math.floor(reservedAt / 1000)
    const count = seconds.get(second)
    if (count === undefined) return
    if (count > 1) seconds.set(second, count - 1)
    else seconds.delete(second)
    if (seconds.size === 0) this.parties.delete(party)
  }

  /** The reservations `party` holds at `now`. */
  inFlight(party: string, now: number): InFlight {
    const seconds = this.parties.get(party)
    if (seconds === undefined) return { count: 0, firstLapseAt: 0 }
    let count = 0
    let first = Infinity
    for (const [second, n] of seconds) {
      const lapseAt = lapseOf(second)
      if (lapseAt <= now) {
        seconds.delete(second)
        continue
      }
      count += n
      if (lapseAt < first) first = lapseAt
    }
    if (seconds.size === 0) this.parties.delete(party)
    return { count, firstLapseAt: count === 0 ? 0 : first }
  }

  private sweep(now: number): void {
    for (const party of [...this.parties.keys()]) this.inFlight(party, now)
    this.sweepAt = Math.max(SWEEP_FROM, 2 * this.parties.size)
  }
}

/** When the reservations made in `second` lapse: RESERVATION_SECONDS after its last moment. */
function lapseOf(second: number): number {
  return (second + 1) * 1000 + RESERVATION_MS
}
