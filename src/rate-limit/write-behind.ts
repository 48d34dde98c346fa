/**
 * When a rate-limit object writes its windows, and where its one alarm stands: pure functions
 * of what the object knows (is memory ahead of storage, when did storage last get the windows,
 * when is the alarm) and the time. No storage here: the object applies the plan.
 *
 * Every write is a billed SQLite row, and so is every `setAlarm`. The rules:
 *
 * - A request admitted while the object is clean and has not written for a flush interval is
 *   written at once (one row, as before write-behind). A client that sends a request now and
 *   then costs one row per request, and one more when a window starts (the cleanup alarm).
 * - A request admitted within a flush interval of the last write leaves memory ahead of storage
 *   (dirty). The alarm is moved, if it is later, to one interval after the last write: at most
 *   one write per interval, and never a count older than an interval unwritten.
 * - The alarm writes a dirty object and comes back one interval later; while requests keep
 *   coming it finds them there, writes once, and comes back again (two rows per interval for a
 *   busy client, whatever its rate). An alarm that finds nothing to write moves to the cleanup.
 * - The cleanup alarm stands at the latest window reset; when it fires after every window has
 *   lapsed the object's storage is deleted, so addresses seen once leave nothing stored.
 *
 * An alarm earlier than a flush needs is never moved: it plans again when it fires, which costs
 * one alarm invocation and no row.
 */

/** The object's alarm: when (ms since the epoch), and whether it comes to write or to clean up. */
export interface Alarm {
  at: number
  purpose: 'flush' | 'cleanup'
}

/** What the object knows about its storage. */
export interface StorageState {
  /** Memory holds counts that storage does not. */
  dirty: boolean
  /** When storage last received the windows (ms since the epoch); -Infinity if not this instance. */
  writtenAt: number
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
 * The state of an object that has just read storage: clean, not written by this instance. An
 * alarm at the stored windows' latest reset is their cleanup; any other is taken for a flush
 * alarm, which plans again when it fires.
 */
export function loadedState(alarmAt: number | null, cleanupAt: number | undefined): StorageState {
  const alarm: Alarm | null =
    alarmAt === null ? null : { at: alarmAt, purpose: alarmAt === cleanupAt ? 'cleanup' : 'flush' }
  return { dirty: false, writtenAt: -Infinity, alarm }
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
  if (!state.dirty && now >= state.writtenAt + flushMs) {
    // A flush alarm already set will hand over to the cleanup; a cleanup alarm follows the reset.
    const moves =
      state.alarm === null || (state.alarm.purpose === 'cleanup' && state.alarm.at !== cleanupAt)
    return withAlarm(moves ? { at: cleanupAt, purpose: 'cleanup' } : undefined, {
      write: true,
      state: { ...state, writtenAt: now },
    })
  }
  const flushAt = state.writtenAt + flushMs
  const moves = state.alarm === null || state.alarm.at > flushAt
  return withAlarm(moves ? { at: flushAt, purpose: 'flush' } : undefined, {
    state: { ...state, dirty: true },
  })
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
    return plan({ deleteAll: true, state: { dirty: false, writtenAt: now, alarm: null } })
  }
  if (state.dirty) {
    const next: Alarm =
      now + flushMs < cleanupAt
        ? { at: now + flushMs, purpose: 'flush' }
        : { at: cleanupAt, purpose: 'cleanup' }
    return withAlarm(next, { write: true, state: { dirty: false, writtenAt: now, alarm: null } })
  }
  return withAlarm({ at: cleanupAt, purpose: 'cleanup' }, { state })
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
