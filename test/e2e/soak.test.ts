/**
 * The soak of scripts/soak.mjs, shortened for CI (SOAK_SECONDS): the script starts the service
 * itself with small limits, so windows turn over within the run, and with KV lagging 30 s behind
 * every publish, so each read right after publishing is served from the allocator's grace copy.
 * `npm run soak` is the full run.
 */
import { execFile } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
/**
 * 15 s on a quiet machine. The checks need the load a quiet machine sends in that time (over 500
 * requests, windows turning over), and one that other jobs keep busy sends fewer a second: there
 * the soak runs longer, by the load per core, up to the full soak's 60 s.
 */
const SOAK_SECONDS = Math.round(
  Math.min(60, 15 * Math.max(1, loadavg()[0]! / availableParallelism())),
)

interface SoakSummary {
  requests: number
  statuses: Record<string, number>
  refusals: number
  publishes: number
  kvLagSeconds: number
  freshReads: { reads: number; notReady: number; mismatched: number; large: number }
  servedUnlimited: number
  mostAdmittedInOneWindow: { short: number; long: number }
  mostWindowsOfOneClient: { short: number; long: number }
  violations: Record<string, { count: number; examples: string[] }>
}

let summary: SoakSummary
beforeAll(
  async () => {
    const { stdout } = await run(
      process.execPath,
      [
        'scripts/soak.mjs',
        ...['--duration', String(SOAK_SECONDS), '--ips', '200', '--concurrency', '16'],
        ...['--short', '20/10', '--long', '30/30', '--kv-lag', '30', '--json'],
      ],
      { timeout: (SOAK_SECONDS + 90) * 1000 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      // Exit code 1 means violations: show the summary that lists them.
      throw new Error(`soak failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`)
    })
    summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as SoakSummary
  },
  (SOAK_SECONDS + 100) * 1000,
)

describe('npm run soak', () => {
  it('admits no client beyond its quota, refuses with the right Retry-After, and never answers 5xx', () => {
    expect(summary.violations).toEqual({})
    expect(summary.servedUnlimited).toBe(0)
    expect(Object.keys(summary.statuses).filter((status) => Number(status) >= 500)).toEqual([])
    // It did what a soak must: load that reached the limits, refusals, and windows that turned over.
    expect(summary.requests).toBeGreaterThan(500)
    expect(summary.publishes).toBeGreaterThan(10)
    expect(summary.statuses['200']).toBeGreaterThan(0)
    expect(summary.refusals).toBeGreaterThan(0)
    expect(summary.mostAdmittedInOneWindow).toEqual({ short: 20, long: 30 })
    expect(summary.mostWindowsOfOneClient.short).toBeGreaterThanOrEqual(2)
  })

  it('reads every publish at once through a lagging KV: 200, the exact bytes, never not_ready', () => {
    expect(summary.kvLagSeconds).toBe(30)
    expect(summary.freshReads.notReady).toBe(0)
    expect(summary.freshReads.mismatched).toBe(0)
    expect(summary.freshReads.reads).toBe(summary.publishes)
    expect(summary.freshReads.large).toBeGreaterThanOrEqual(1)
  })
})
