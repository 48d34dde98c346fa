import { describe, expect, it } from 'vitest'
import {
  loadedState,
  planAdmitted,
  planAlarm,
  type StoragePlan,
  type StorageState,
} from '../../src/rate-limit/write-behind'

const FLUSH_MS = 9_000
const T0 = 1_000_000_000
const HOUR = 3_600_000

/**
 * A rate-limit object's storage traffic under a list of request times, alarms firing when they
 * are due: every write, `setAlarm` and `deleteAll` it would make, in order.
 */
function simulate(requests: number[], until: number, cleanupAt = T0 + HOUR) {
  let state: StorageState = loadedState(undefined)
  const ops: string[] = []
  const record = (at: number, plan: StoragePlan): void => {
    state = plan.state
    if (plan.write) ops.push(`write@${at - T0}`)
    if (plan.setAlarm !== undefined) ops.push(`alarm->${plan.setAlarm - T0}`)
    if (plan.deleteAll) ops.push(`deleteAll@${at - T0}`)
  }
  const fireDueAlarms = (before: number): void => {
    while (state.alarm !== null && state.alarm.at <= before) {
      const at = state.alarm.at
      record(at, planAlarm(state, at, cleanupAt, FLUSH_MS))
    }
  }
  for (const at of requests) {
    fireDueAlarms(at)
    record(at, planAdmitted(state, at, cleanupAt, FLUSH_MS))
  }
  fireDueAlarms(until)
  return { ops, rowWrites: ops.length, state }
}

/** Request times: `perSecond` a second for `seconds`, starting at T0. */
function steady(perSecond: number, seconds: number): number[] {
  return Array.from({ length: perSecond * seconds }, (_, i) => T0 + (i * 1000) / perSecond)
}

describe('write-behind plan', () => {
  it('writes a lone request at once and sets the cleanup alarm, as before write-behind', () => {
    const { ops } = simulate([T0], T0 + 2 * HOUR)
    expect(ops).toEqual(['write@0', `alarm->${HOUR}`, `deleteAll@${HOUR}`])
  })

  it('writes each request of a client that calls half an interval apart or more, and no alarm', () => {
    const requests = [0, 4_500, 20_000, 25_000, 120_000].map((t) => T0 + t)
    const { ops } = simulate(requests, T0 + HOUR - 1)
    expect(ops).toEqual([
      'write@0',
      `alarm->${HOUR}`,
      'write@4500',
      'write@20000',
      'write@25000',
      'write@120000',
    ])
  })

  it('writes a busy client once per interval, with one alarm per interval', () => {
    const { ops, rowWrites } = simulate(steady(2, 60), T0 + 60_000)
    expect(ops.slice(0, 7)).toEqual([
      'write@0',
      `alarm->${HOUR}`,
      'alarm->9500',
      'write@9500',
      'alarm->18500',
      'write@18500',
      'alarm->27500',
    ])
    // 120 requests: the first write, the cleanup alarm, then a write and an alarm per 9 s.
    expect(rowWrites).toBe(3 + 2 * 6)
  })

  it('costs at most one row per request once the client has any history, whatever its pace', () => {
    for (const gapMs of [300, 1_000, 2_000, 3_000, 4_000, 4_499, 4_500, 6_000, 8_999, 9_000]) {
      const requests = Array.from({ length: 200 }, (_, i) => T0 + i * gapMs)
      const { rowWrites } = simulate(requests, requests.at(-1)! + 3 * FLUSH_MS)
      // The first request also sets the cleanup alarm; the last interval also hands over to it.
      expect(rowWrites, `a request every ${gapMs} ms`).toBeLessThanOrEqual(200 + 2)
      // And never more than two rows per interval.
      const span = requests.at(-1)! - T0 + 3 * FLUSH_MS
      expect(rowWrites).toBeLessThanOrEqual(2 * Math.ceil(span / FLUSH_MS) + 2)
    }
  })

  it('never leaves an admitted request unwritten longer than an interval', () => {
    for (const gapMs of [100, 700, 3_000, 4_400, 5_000]) {
      let state: StorageState = loadedState(undefined)
      let oldestUnwritten: number | null = null
      for (let i = 0; i < 300; i++) {
        const at = T0 + i * gapMs
        while (state.alarm !== null && state.alarm.at <= at) {
          const plan = planAlarm(state, state.alarm.at, T0 + HOUR, FLUSH_MS)
          if (plan.write) oldestUnwritten = null
          state = plan.state
        }
        const plan = planAdmitted(state, at, T0 + HOUR, FLUSH_MS)
        if (plan.write) oldestUnwritten = null
        else oldestUnwritten ??= at
        state = plan.state
        if (oldestUnwritten !== null) {
          expect(state.dirty).toBe(true)
          expect(state.alarm!.at - oldestUnwritten).toBeLessThanOrEqual(FLUSH_MS)
        }
      }
    }
  })

  it('hands the alarm over to the cleanup once the client has slowed down', () => {
    const { ops, state } = simulate([T0, T0 + 1_000, T0 + 2_000], T0 + 30_000)
    expect(ops).toEqual([
      'write@0',
      `alarm->${HOUR}`,
      'alarm->10000',
      'write@10000',
      `alarm->${HOUR}`,
    ])
    expect(state).toEqual({
      dirty: false,
      lastAdmittedAt: T0 + 2_000,
      alarm: { at: T0 + HOUR, purpose: 'cleanup' },
    })
  })

  it('hands over to the cleanup when a busy interval is followed by one with nothing to write', () => {
    const requests = [0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000]
    const { ops } = simulate(
      requests.map((t) => T0 + t),
      T0 + 40_000,
    )
    expect(ops).toEqual([
      'write@0',
      `alarm->${HOUR}`,
      'alarm->10000',
      'write@10000',
      'alarm->19000',
      `alarm->${HOUR}`,
    ])
  })

  it('deletes everything when the windows have lapsed, unwritten counts included', () => {
    const state: StorageState = {
      dirty: true,
      lastAdmittedAt: T0,
      alarm: { at: T0 + 9_000, purpose: 'flush' },
    }
    const plan = planAlarm(state, T0 + 9_000, T0 + 5_000, FLUSH_MS)
    expect(plan).toMatchObject({ deleteAll: true, write: false, setAlarm: undefined })
    expect(planAlarm(state, T0 + 9_000, undefined, FLUSH_MS).deleteAll).toBe(true)
  })

  it('moves the cleanup alarm to the new latest reset, and leaves a flush alarm alone', () => {
    const cleanup: StorageState = {
      dirty: false,
      lastAdmittedAt: T0,
      alarm: { at: T0 + 100_000, purpose: 'cleanup' },
    }
    expect(planAdmitted(cleanup, T0 + 130_000, T0 + 230_000, FLUSH_MS).setAlarm).toBe(T0 + 230_000)
    const flush: StorageState = { ...cleanup, alarm: { at: T0 + 9_000, purpose: 'flush' } }
    expect(planAdmitted(flush, T0 + 8_000, T0 + 230_000, FLUSH_MS)).toMatchObject({
      write: true,
      setAlarm: undefined,
    })
  })

  it('takes the alarm of stored windows for their cleanup, and none when nothing is stored', () => {
    expect(loadedState(T0 + HOUR).alarm).toEqual({ at: T0 + HOUR, purpose: 'cleanup' })
    expect(loadedState(undefined).alarm).toBeNull()
  })

  it('replaces a flush alarm a new instance took for the cleanup, or lets it hand over', () => {
    // A new instance over stored windows, whose pending alarm is really a flush at T0 + 9 s.
    const loaded = loadedState(T0 + HOUR)
    const busy = planAdmitted({ ...loaded, lastAdmittedAt: T0 }, T0 + 1_000, T0 + HOUR, FLUSH_MS)
    expect(busy.setAlarm).toBe(T0 + 1_000 + FLUSH_MS)
    const handOver = planAlarm(loaded, T0 + 9_000, T0 + HOUR, FLUSH_MS)
    expect(handOver).toMatchObject({ write: false, setAlarm: T0 + HOUR })
  })
})
