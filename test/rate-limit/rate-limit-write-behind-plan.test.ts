import { describe, expect, it } from 'vitest'
import { alarmStep, nextAlarm, planChange, UNSTORED } from '../../src/rate-limit/testing'
import type { RecordStorage } from '../support/limiter-shapes'

const FLUSH = 9_000
const LAPSE = 3_600_000

/** A record written at `now`, to be forgotten at `forgetAt`, with nothing in memory only. */
function writtenAt(now: number, forgetAt: number): RecordStorage {
  return { ...UNSTORED, writtenAt: now, storedForgetAt: forgetAt }
}

/** The plans of requests at `times` (ms) of one record, with the alarm they leave. */
function requests(times: number[]): { writes: number[]; alarms: number[]; storage: RecordStorage } {
  let storage = UNSTORED
  let alarm: number | null = null
  const writes: number[] = []
  const alarms: number[] = []
  for (const now of times) {
    const plan = planChange(storage, 'request', now, now + LAPSE, alarm, FLUSH)
    storage = plan.storage
    if (plan.write) writes.push(now)
    if (plan.setAlarm !== undefined) alarms.push((alarm = plan.setAlarm))
  }
  return { writes, alarms, storage }
}

describe('the write-behind plan', () => {
  it('holds a lone request in memory, with no alarm', () => {
    expect(requests([0])).toMatchObject({ writes: [], alarms: [] })
  })

  it('writes the second request with it, and sets the alarm that deletes the record', () => {
    expect(requests([0, 20_000, 40_000])).toMatchObject({
      writes: [20_000],
      alarms: [20_000 + LAPSE],
    })
    expect(requests([0, 1_000, 2_000])).toMatchObject({ writes: [1_000], alarms: [1_000 + LAPSE] })
  })

  it('leaves a busy client to the flush alarm, which is moved forward once', () => {
    const busy = requests([0, 500, 1_000, 1_500, 2_000, 2_500])
    expect(busy.writes).toEqual([500])
    expect(busy.alarms).toEqual([500 + LAPSE, 1_500 + FLUSH])
    expect(busy.storage.dirty).toBe(true)
  })

  it('never holds a change that starts a penalty', () => {
    const plan = planChange(writtenAt(0, LAPSE), 'breach', 60_000, LAPSE, LAPSE, FLUSH)
    expect(plan).toMatchObject({ write: true, setAlarm: undefined })
  })

  it('has the alarm forget lapsed records, write dirty ones and drop stale stored versions', () => {
    expect(alarmStep(writtenAt(0, 10), 10, 10, 5)).toBe('forget')
    expect(alarmStep({ ...UNSTORED, dirty: true }, 20, 10, 5)).toBe('write')
    expect(alarmStep({ ...writtenAt(0, 10), unwrittenRequests: 1 }, 20, 10, 5)).toBe('unstore')
    expect(alarmStep(writtenAt(0, 20), 20, 10, 5)).toBe('keep')
  })

  it('has the alarm leave unwritten a dirty record that lapses before the next interval', () => {
    expect(alarmStep({ ...writtenAt(0, 14), dirty: true }, 14, 10, 5)).toBe('settle')
    expect(alarmStep({ ...writtenAt(0, 15), dirty: true }, 16, 10, 5)).toBe('write')
  })

  it('watches a busy object each interval, and else wakes at the first lapse', () => {
    expect(nextAlarm(true, [LAPSE], 0, FLUSH)).toBe(FLUSH)
    expect(nextAlarm(false, [0, LAPSE, 2 * LAPSE], 0, FLUSH)).toBe(LAPSE)
    expect(nextAlarm(false, [0], 0, FLUSH)).toBeNull()
  })
})
