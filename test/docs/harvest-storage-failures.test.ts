/**
 * How the harvest bench's mixed-burst rows (scripts/bench/harvest/burst-rows.mjs) take a run's
 * storage `503`s: an unsettled lookup (an ID KV does not hold, its shard silent) is the service's
 * own answer, counted as a miss, so the row judges its figures; any other storage `503` means the
 * run measured storage, not the limiter, and the row fails whatever its figures.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of the scripts, without types
import { mixedBurstRows } from '../../scripts/bench/harvest/burst-rows.mjs'

interface Row {
  subject: string
  met: string
}

const tally = { requests: 100, answered: 64, refused: 36, statuses: {} }
const plugin = { requests: 110, refused: 0, other: 0, statuses: {} }

/** One run of 4 networks, 0.79 live IDs an hour (target 1), with `log` as its service logged. */
function rowOf(log: { count: number; unsettled: number; kept: unknown[] }): Row {
  const run = {
    what: '4 /24s of one IPv4 /16',
    networks: 4,
    bursts: 12,
    live: tally,
    guesses: tally,
    leak: false,
    z: { pooled: 0.1, within: 0.2 },
    storageFailures: log.count,
    storageFailureLog: { firstUnsettled: null, ...log },
    spanMs: 3_600_000,
    settledPerHour: 1_190,
    livePerHour: 0.79,
    bound: {
      formula: '4 x 300 misses/hour x 0.00067 live',
      settledPerHour: 1_200,
      livePerHour: 0.8,
    },
    bystander: { address: '100.80.200.10', ...plugin },
  }
  const rows = mixedBurstRows({ harvest: { callers: { plugin }, mixedBursts: [run] } }) as Row[]
  return rows[0]!
}

const kvDown = {
  line: '{"status":503,"outcome":"storage_failed","cause":{"name":"Error","message":"KV is down"}}',
  before: [],
  after: [],
}

describe("the harvest bench's storage 503s", () => {
  it('judges a run without any by its figures', () => {
    expect(rowOf({ count: 0, unsettled: 0, kept: [] }).met).toBe('yes')
  })

  it('judges a run whose 503s were all unsettled lookups by its figures, and says so', () => {
    const row = rowOf({ count: 3, unsettled: 3, kept: [] })
    expect(row.met).toBe('yes')
    expect(row.subject).toContain('3 unsettled-lookup 503s, counted as misses and settled')
  })

  it('fails a run with any other storage 503, and names its logged cause', () => {
    const row = rowOf({ count: 4, unsettled: 3, kept: [kvDown] })
    expect(row.met).toBe('FAIL')
    expect(row.subject).toContain(
      'FAIL: 1 answers were storage 503s (logged cause: Error: KV is down',
    )
  })
})
