/**
 * When a rate-limit object writes its windows, and where its one alarm stands: pure functions
 * of what the object knows (is memory ahead of storage, when was the last request admitted,
 * where is the alarm) and the time. No storage here: the object applies the plan.
 *
 * Every write is a billed SQLite row, and so is every `setAlarm`. The loss bound is the flush
 * interval F: an admitted request is in storage within F, or the object can lose it only with
 * the instance (a crash, a deploy). Within that, as few rows as the client allows:
 *
 * - A request that comes half an interval or more after the client's last one is written at
 *   once, as a write-through limiter would: one row, no alarm. A client that calls now and then
 *   costs one row per request (and one when a window starts: the cleanup alarm).
 * - A request that comes sooner stays in memory (the object is dirty), and the alarm is brought
 *   forward, if it is later, to one interval from then. When it fires it writes once, and while
 *   the client keeps calling it comes back an interval later and writes once again: two rows
 *   per interval (a write and a `setAlarm`), however many requests. When the client has slowed
 *   down, or nothing was left to write, the alarm moves to the cleanup.
 * - The cleanup alarm stands at the latest window reset; when it fires after every window has
 *   lapsed the object's storage is deleted, so addresses seen once leave nothing stored.
 *
 * So an object writes at most two rows per interval whatever its client does, and a request
 * costs at most one row once its client has any history.
 */

/** The object's alarm: when (ms since the epoch), and whether it comes to write or to clean up. */
export interface Alarm {
  at: number
  purpose: 'flush' | 'cleanup'
}

/** What the object knows about its storage. */
export interface StorageState {
  /** Memory holds admitted requests that storage does not. */
  dirty: boolean
  /** When the last request was admitted (ms since the epoch); -Infinity before this instance's first. */
  lastAdmittedAt: number
  alarm: Alarm | null
}

/** What to do to storage, and the state once done. */
export interface StoragePlan {
  /** Write the windows as they are in memory. */
  write: boolean
  /** Set the alarm to this time; undefined leaves it as it is. */
  setAlarm: number | undefined
  /** Delete everything the object stored (its alarm included): every window has lapsed. */
  deleteAll: boolean
  state: StorageState
}

/**
 * The state of an object that has just read storage: clean, nothing admitted yet. Its alarm is
 * taken to be the cleanup at the stored windows' latest reset, or none when nothing is stored:
 * whenever windows are stored an alarm is set at or before that reset (deleteAll removes both).
 * A flush alarm taken for the cleanup is harmless: it finds nothing to write and moves to the
 * cleanup, and a plan that sets another alarm replaces it.
 */
export function loadedState(cleanupAt: number | undefined): StorageState {
  const alarm: Alarm | null = cleanupAt === undefined ? null : { at: cleanupAt, purpose: 'cleanup' }
  return { dirty: false, lastAdmittedAt: -Infinity, alarm }
}

/**
 * The plan after a request was admitted at `now` and changed the windows. `cleanupAt` is their
 * latest reset; `flushMs` the flush interval.
 */
export function planAdmitted(
  state: StorageState,
  now: number,
  cleanupAt: number,
  flushMs: number,
): StoragePlan {
  const busy = now - state.lastAdmittedAt < flushMs / 2
  const admitted = { ...state, lastAdmittedAt: now }
  if (!state.dirty && !busy) {
    // A flush alarm already set will hand over to the cleanup; a cleanup alarm follows the reset.
    const alarm = state.alarm
    const moves = alarm === null || (alarm.purpose === 'cleanup' && alarm.at !== cleanupAt)
    const cleanup: Alarm = { at: cleanupAt, purpose: 'cleanup' }
    return withAlarm(moves ? cleanup : undefined, { write: true, state: admitted })
  }
  // Dirty: the alarm is already due within an interval of the oldest unwritten request.
  const flushAt = now + flushMs
  const moves = state.alarm === null || (!state.dirty && state.alarm.at > flushAt)
  const flush: Alarm = { at: flushAt, purpose: 'flush' }
  return withAlarm(moves ? flush : undefined, { state: { ...admitted, dirty: true } })
}

/**
 * The plan when the alarm fires at `now`. `cleanupAt` is the latest reset of the windows in
 * memory, undefined when there are none.
 */
export function planAlarm(
  state: StorageState,
  now: number,
  cleanupAt: number | undefined,
  flushMs: number,
): StoragePlan {
  if (cleanupAt === undefined || now >= cleanupAt) {
    // Every window has lapsed: unwritten counts of lapsed windows are worth nothing either.
    return plan({ deleteAll: true, state: { ...state, dirty: false, alarm: null } })
  }
  const cleanup: Alarm = { at: cleanupAt, purpose: 'cleanup' }
  const clean = { ...state, dirty: false }
  if (!state.dirty) return withAlarm(cleanup, { state: clean })
  const stillBusy = now - state.lastAdmittedAt < flushMs / 2 && now + flushMs < cleanupAt
  const next: Alarm = stillBusy ? { at: now + flushMs, purpose: 'flush' } : cleanup
  return withAlarm(next, { write: true, state: clean })
}

/** The plan with `alarm` set (undefined: the alarm stays as it is). */
function withAlarm(
  alarm: Alarm | undefined,
  parts: Partial<StoragePlan> & { state: StorageState },
): StoragePlan {
  const state = alarm === undefined ? parts.state : { ...parts.state, alarm }
  return plan({ ...parts, setAlarm: alarm?.at, state })
}

function plan(parts: Partial<StoragePlan> & { state: StorageState }): StoragePlan {
  return { write: false, setAlarm: undefined, deleteAll: false, ...parts }
}
