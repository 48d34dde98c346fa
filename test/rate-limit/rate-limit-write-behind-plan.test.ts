import { describe, expect, it } from 'vitest'
import {
  LOADED,
  planAdmitted,
  planAlarm,
  type StoragePlan,
} from '../../src/rate-limit/write-behind'

const FLUSH_MS = 9_000
const T0 = 1_000_000_000
const HOUR = 3_600_000

/**
 * A rate-limit object's storage traffic under a list of request times, its alarm firing when it
 * is due: every write and `setAlarm` it would make, in order, and the alarms that fired.
 */
function simulate(requests: number[], until: number, lapseAt = T0 + HOUR) {
  let state = LOADED
  let alarm: number | null = null
  const ops: string[] = []
  let alarms = 0
  let oldestUnwritten: number | null = null
  let longestUnwritten = 0
  const record = (at: number, plan: StoragePlan): void => {
    state = plan.state
    if (plan.write) {
      ops.push(`write@${at - T0}`)
      oldestUnwritten = null
    }
    if (plan.setAlarm !== undefined) {
      ops.push(`alarm->${plan.setAlarm - T0}`)
      alarm = plan.setAlarm
    }
  }
  const fireDueAlarm = (before: number): void => {
    if (alarm === null || alarm > before) return
    const at = alarm
    alarm = null
    alarms++
    if (oldestUnwritten !== null)
      longestUnwritten = Math.max(longestUnwritten, at - oldestUnwritten)
    record(at, planAlarm(state, at >= lapseAt))
  }
  for (const at of requests) {
    fireDueAlarm(at)
    record(at, planAdmitted(state, at, FLUSH_MS))
    if (state.dirty) oldestUnwritten ??= at
  }
  fireDueAlarm(until)
  return { ops, rowWrites: ops.length, alarms, alarm, state, longestUnwritten }
}

/** Request times: `perSecond` a second for `seconds`, starting at T0. */
function steady(perSecond: number, seconds: number): number[] {
  return Array.from({ length: perSecond * seconds }, (_, i) => T0 + (i * 1000) / perSecond)
}

describe('write-behind plan', () => {
  it('writes a lone request at once, and nothing else ever: one row, no alarm', () => {
    const { ops, alarms, alarm } = simulate([T0], T0 + 2 * HOUR)
    expect(ops).toEqual(['write@0'])
    expect(alarms).toBe(0)
    expect(alarm).toBeNull()
  })

  it('writes each request of a client that calls half an interval apart or more, and no alarm', () => {
    const requests = [0, 4_500, 20_000, 25_000, 120_000].map((t) => T0 + t)
    const { ops, alarms } = simulate(requests, T0 + HOUR - 1)
    expect(ops).toEqual(['write@0', 'write@4500', 'write@20000', 'write@25000', 'write@120000'])
    expect(alarms).toBe(0)
  })

  it('writes three requests in a row with three rows: the first, then one flush of the other two', () => {
    const { ops, alarms } = simulate([T0, T0 + 1_000, T0 + 2_000], T0 + HOUR)
    expect(ops).toEqual(['write@0', 'alarm->10000', 'write@10000'])
    expect(alarms).toBe(1)
  })

  it('writes a busy client once per interval, with one alarm per interval', () => {
    const { ops, rowWrites, alarms } = simulate(steady(2, 60), T0 + 120_000)
    expect(ops.slice(0, 6)).toEqual([
      'write@0',
      'alarm->9500',
      'write@9500',
      'alarm->18500',
      'write@18500',
      'alarm->27500',
    ])
    // 120 requests: the first write, then a setAlarm and a write per interval and a request.
    expect(rowWrites).toBe(1 + 2 * 7)
    expect(alarms).toBe(7)
  })

  it('costs at most two rows per interval, and one per request at a slower pace', () => {
    for (const gapMs of [300, 1_000, 2_000, 3_000, 4_000, 4_499, 4_500, 6_000, 8_999, 9_000]) {
      const requests = Array.from({ length: 200 }, (_, i) => T0 + i * gapMs)
      const { rowWrites } = simulate(requests, requests.at(-1)! + 3 * FLUSH_MS)
      const span = requests.at(-1)! - T0 + FLUSH_MS
      expect(rowWrites, `a request every ${gapMs} ms`).toBeLessThanOrEqual(
        Math.min(200, 1 + 2 * Math.ceil(span / FLUSH_MS)),
      )
    }
  })

  it('never leaves an admitted request unwritten longer than an interval', () => {
    for (const gapMs of [100, 700, 3_000, 4_400, 5_000]) {
      const requests = Array.from({ length: 300 }, (_, i) => T0 + i * gapMs)
      const { longestUnwritten, state } = simulate(requests, requests.at(-1)! + FLUSH_MS)
      expect(longestUnwritten, `a request every ${gapMs} ms`).toBeLessThanOrEqual(FLUSH_MS)
      expect(state.dirty).toBe(false)
    }
  })

  it('writes nothing when the alarm finds every window lapsed', () => {
    const dirty = { dirty: true, lastAdmittedAt: T0 }
    expect(planAlarm(dirty, true)).toEqual({
      write: false,
      setAlarm: undefined,
      state: { dirty: false, lastAdmittedAt: T0 },
    })
    expect(planAlarm(dirty, false).write).toBe(true)
  })

  it('does nothing when an alarm left by a crashed instance finds a new one clean', () => {
    expect(planAlarm(LOADED, false)).toEqual({ write: false, setAlarm: undefined, state: LOADED })
  })
})
