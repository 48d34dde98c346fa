/**
 * When a rate-limit object writes its windows, and when it sets its one alarm: pure functions of
 * what the object knows (is memory ahead of storage, when was the last request admitted) and the
 * time. No storage here: the object applies the plan.
 *
 * Every write and every `setAlarm` is a billed row, and every alarm that fires a billed request.
 * The floor of an exact count is one write per request a client makes now and then: its count
 * must reach storage within a flush interval, and nothing is cheaper than writing it with the
 * request. So a lone request costs that write and nothing else: no cleanup alarm follows it (what
 * stays stored, and why: docs/security.md#what-the-rate-limiter-keeps). Only a client calling
 * faster than half an interval has its requests held, with an alarm to write them: two rows per
 * interval, however many requests. docs/rate-limits.md#durability explains the plan and what a
 * restart can lose.
 */

/** What the object knows about its storage. */
export interface StorageState {
  /** Memory holds admitted requests that storage does not; the flush alarm is then set. */
  dirty: boolean
  /** When the last request was admitted (ms since the epoch); -Infinity before this instance's first. */
  lastAdmittedAt: number
}

/** What to do to storage, and the state once done. */
export interface StoragePlan {
  /** Write the windows as they are in memory. */
  write: boolean
  /** Set the alarm to this time; undefined leaves it as it is. */
  setAlarm: number | undefined
  state: StorageState
}

/**
 * The state of an object that has just read storage: clean, nothing admitted yet. A flush alarm
 * left by an instance that crashed finds nothing to write and does nothing.
 */
export const LOADED: StorageState = { dirty: false, lastAdmittedAt: -Infinity }

/** The plan after a request was admitted at `now` and changed the windows; `flushMs` the interval. */
export function planAdmitted(state: StorageState, now: number, flushMs: number): StoragePlan {
  const admitted = { ...state, lastAdmittedAt: now }
  // Dirty: the alarm is already due within an interval of the oldest unwritten request.
  if (state.dirty) return { write: false, setAlarm: undefined, state: admitted }
  const busy = now - state.lastAdmittedAt < flushMs / 2
  if (!busy) return { write: true, setAlarm: undefined, state: admitted }
  return { write: false, setAlarm: now + flushMs, state: { ...admitted, dirty: true } }
}

/**
 * The plan when the alarm fires at `now`. `lapsed` says every window in memory has run out: its
 * unwritten counts are worth nothing, and the next admitted request writes new windows over the
 * stored ones.
 */
export function planAlarm(state: StorageState, lapsed: boolean): StoragePlan {
  const clean = { ...state, dirty: false }
  return { write: state.dirty && !lapsed, setAlarm: undefined, state: clean }
}
