/**
 * When a rate-limit object writes a record, deletes it, and sets its one alarm: pure functions of
 * what the object knows (what memory holds beyond storage, when the record was last written, when
 * the alarm is due) and the time. No storage here: the object applies the plan.
 *
 * Every write, delete and `setAlarm` is a billed row, every alarm that fires a billed request, and
 * every record stored a SQLite database of about 12 KB billed each month. So:
 * - A record holds one unwritten request (and its miss) in memory without an alarm: a client that
 *   asks once writes nothing and leaves nothing. An eviction or a restart forgets that request,
 *   which is the loss bound of docs/rate-limits.md#durability.
 * - A second unwritten request is written with the request, or, when the record was written less
 *   than a flush interval ago (a busy client), by the flush alarm: two rows per interval, however
 *   many requests. While the alarm keeps finding something to write it comes back each interval
 *   (a watch); once it finds nothing it is set to the earliest time a stored record lapses.
 * - That alarm deletes what has lapsed, and everything at once (`deleteAll`) when nothing stored
 *   is needed any more: no record outlives its windows and its miss penalty. It does not write a
 *   record that lapses before the next interval.
 * - A change that starts or lengthens a miss penalty is written at once, whatever the interval:
 *   a penalty must outlive an eviction and a restart. A request of a clean client of a penalized
 *   (or spent) network is not held either: its record is what lets it through.
 */

/** What the object knows of one record's storage. */
export interface RecordStorage {
  /** Admitted requests in memory and not in storage. */
  unwrittenRequests: number
  /** Misses in memory and not in storage. */
  unwrittenMisses: number
  /** The alarm is due within a flush interval and will write the record. */
  dirty: boolean
  /** When the record was last written by this instance (ms); -Infinity before the first write. */
  writtenAt: number
  /** When the version in storage may be deleted (ms); 0 when storage holds none. */
  storedForgetAt: number
}

/** A record that storage does not hold. */
export const UNSTORED: RecordStorage = {
  unwrittenRequests: 0,
  unwrittenMisses: 0,
  dirty: false,
  writtenAt: -Infinity,
  storedForgetAt: 0,
}

/** A record read from storage at start: what storage holds is what memory holds. */
export function loaded(storedForgetAt: number): RecordStorage {
  return { ...UNSTORED, storedForgetAt }
}

/**
 * What changed in a record: a request admitted, a miss counted, a miss that started or
 * lengthened a penalty,
 * or a request of a client served through its network's strain (`kept`), which must outlive an
 * eviction like a penalty: it is what makes the client known (rate-limiter.ts).
 */
export type Change = 'request' | 'miss' | 'breach' | 'kept'

/** What to do to storage for one record, and its storage state once done. */
export interface RecordPlan {
  /** Write the record as it is in memory now. */
  write: boolean
  /** Set the object's alarm to this time; undefined leaves it as it is. */
  setAlarm: number | undefined
  storage: RecordStorage
}

/**
 * The plan after a change at `now`. `forgetAt` is when the changed record lapses, `alarmAt` when
 * the object's alarm is due (null: none), `flushMs` the flush interval.
 */
export function planChange(
  storage: RecordStorage,
  change: Change,
  now: number,
  forgetAt: number,
  alarmAt: number | null,
  flushMs: number,
): RecordPlan {
  const request = change === 'request' || change === 'kept'
  const changed = {
    ...storage,
    unwrittenRequests: storage.unwrittenRequests + (request ? 1 : 0),
    unwrittenMisses: storage.unwrittenMisses + (request ? 0 : 1),
  }
  if (change === 'breach') {
    const needsAlarm = alarmAt === null || alarmAt > forgetAt
    return {
      write: true,
      setAlarm: needsAlarm ? forgetAt : undefined,
      storage: writtenAt(now, forgetAt),
    }
  }
  const held =
    (change === 'request' || change === 'miss') &&
    changed.unwrittenRequests <= 1 &&
    changed.unwrittenMisses <= 1
  if (changed.dirty || held) return { write: false, setAlarm: undefined, storage: changed }
  const dirty = { ...changed, dirty: true }
  if (alarmAt !== null && alarmAt <= now + flushMs) {
    return { write: false, setAlarm: undefined, storage: dirty }
  }
  if (now - storage.writtenAt < flushMs) {
    return { write: false, setAlarm: now + flushMs, storage: dirty }
  }
  const written = writtenAt(now, forgetAt)
  const needsAlarm = alarmAt === null || alarmAt > forgetAt
  return { write: true, setAlarm: needsAlarm ? forgetAt : undefined, storage: written }
}

/** The storage state of a record just written at `now`. */
export function writtenAt(now: number, forgetAt: number): RecordStorage {
  return { ...UNSTORED, writtenAt: now, storedForgetAt: forgetAt }
}

/** What the alarm does to one record at `now`. */
export type AlarmStep = 'forget' | 'write' | 'unstore' | 'settle' | 'keep'

/**
 * The alarm's step for a record that lapses at `forgetAt`: forget a lapsed one (memory and
 * storage), write a dirty one, delete a stored version that lapsed while memory holds a newer
 * one not yet written, keep the rest. A dirty record that lapses before the next flush is not
 * written (`settle`: memory keeps it, no longer due to be written): the write would be deleted
 * within the interval, and an eviction meanwhile loses no more than one interval's counts, the
 * loss bound any record has. It saves a busy client's last write and the watch's last alarm.
 */
export function alarmStep(
  storage: RecordStorage,
  forgetAt: number,
  now: number,
  flushMs: number,
): AlarmStep {
  if (forgetAt <= now) return 'forget'
  if (storage.dirty && forgetAt > now + flushMs) return 'write'
  if (storage.storedForgetAt !== 0 && storage.storedForgetAt <= now) return 'unstore'
  if (storage.dirty) return 'settle'
  return 'keep'
}

/**
 * When the alarm comes back after a run at `now`: a flush interval later if it wrote something
 * (a watch over a busy object), else when the first stored record lapses, else never (null).
 */
export function nextAlarm(
  wrote: boolean,
  storedForgetAts: Iterable<number>,
  now: number,
  flushMs: number,
): number | null {
  if (wrote) return now + flushMs
  let first = Infinity
  for (const at of storedForgetAts) if (at !== 0 && at < first) first = at
  return first === Infinity ? null : first
}
