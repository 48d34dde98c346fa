import { describe, expect, it } from 'vitest'
import {
  loadedState,
  planAdmitted,
  planAlarm,
  type StoragePlan,
  type StorageState,
} from '../src/rate-limit/write-behind'

const FLUSH_MS = 9_000
const T0 = 1_000_000_000
const HOUR = 3_600_000

/**
 * A rate-limit object's storage traffic under a list of request times, alarms firing when they
 * are due: every write, `setAlarm` and `deleteAll` it would make, in order.
 */
function simulate(requests: number[], until: number, cleanupAt = T0 + HOUR) {
  let state: StorageState = loadedState(null, undefined)
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

  it('costs one row per request for a client that comes back after more than an interval', () => {
    const requests = [0, 20_000, 45_000, 120_000].map((t) => T0 + t)
    const { ops } = simulate(requests, T0 + HOUR - 1)
    expect(ops).toEqual(['write@0', `alarm->${HOUR}`, 'write@20000', 'write@45000', 'write@120000'])
  })

  it('writes a busy client once per interval and sets the alarm once per interval', () => {
    const { ops, rowWrites } = simulate(steady(2, 60), T0 + 60_000)
    expect(ops.slice(0, 7)).toEqual([
      'write@0',
      `alarm->${HOUR}`,
      'alarm->9000',
      'write@9000',
      'alarm->18000',
      'write@18000',
      'alarm->27000',
    ])
    // 120 requests: the first write, the cleanup alarm, then a write and an alarm per 9 s.
    expect(rowWrites).toBe(2 + 1 + 2 * 6)
  })

  it('never leaves a count unwritten longer than an interval while requests keep coming', () => {
    const requests = steady(5, 100)
    let state: StorageState = loadedState(null, undefined)
    let oldestUnwritten: number | null = null
    for (const at of requests) {
      while (state.alarm !== null && state.alarm.at <= at) {
        const fired = state.alarm.at
        const plan = planAlarm(state, fired, T0 + HOUR, FLUSH_MS)
        if (plan.write) oldestUnwritten = null
        state = plan.state
      }
      const plan = planAdmitted(state, at, T0 + HOUR, FLUSH_MS)
      if (plan.write) oldestUnwritten = null
      else oldestUnwritten ??= at
      state = plan.state
      if (oldestUnwritten !== null) {
        expect(state.alarm!.at - oldestUnwritten).toBeLessThanOrEqual(FLUSH_MS)
      }
    }
  })

  it('hands the alarm over to the cleanup once an interval passes with nothing to write', () => {
    const { ops, state } = simulate([T0, T0 + 1_000, T0 + 2_000], T0 + 30_000)
    expect(ops).toEqual([
      'write@0',
      `alarm->${HOUR}`,
      'alarm->9000',
      'write@9000',
      'alarm->18000',
      `alarm->${HOUR}`,
    ])
    expect(state).toEqual({
      dirty: false,
      writtenAt: T0 + 9_000,
      alarm: { at: T0 + HOUR, purpose: 'cleanup' },
    })
  })

  it('deletes everything when the windows have lapsed, unwritten counts included', () => {
    const state: StorageState = {
      dirty: true,
      writtenAt: T0,
      alarm: { at: T0 + 9_000, purpose: 'flush' },
    }
    const plan = planAlarm(state, T0 + 9_000, T0 + 5_000, FLUSH_MS)
    expect(plan).toMatchObject({ deleteAll: true, write: false, setAlarm: undefined })
    expect(planAlarm(state, T0 + 9_000, undefined, FLUSH_MS).deleteAll).toBe(true)
  })

  it('moves the cleanup alarm to the new latest reset, and leaves a flush alarm alone', () => {
    const cleanup: StorageState = {
      dirty: false,
      writtenAt: T0,
      alarm: { at: T0 + 100_000, purpose: 'cleanup' },
    }
    expect(planAdmitted(cleanup, T0 + 130_000, T0 + 230_000, FLUSH_MS).setAlarm).toBe(T0 + 230_000)
    const flush: StorageState = { ...cleanup, alarm: { at: T0 + 9_000, purpose: 'flush' } }
    expect(planAdmitted(flush, T0 + 9_500, T0 + 230_000, FLUSH_MS)).toMatchObject({
      write: true,
      setAlarm: undefined,
    })
  })

  it('takes a stored alarm at the windows’ latest reset for their cleanup, any other for a flush', () => {
    expect(loadedState(T0 + HOUR, T0 + HOUR).alarm).toEqual({ at: T0 + HOUR, purpose: 'cleanup' })
    expect(loadedState(T0 + 9_000, T0 + HOUR).alarm).toEqual({ at: T0 + 9_000, purpose: 'flush' })
    expect(loadedState(null, T0 + HOUR).alarm).toBeNull()
  })
})
