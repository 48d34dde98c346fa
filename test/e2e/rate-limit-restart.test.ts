import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from './local-service'

/** A short flush interval keeps the test short; the rule is the same at the default 9 s. */
const FLUSH_SECONDS = 2
/**
 * The wait past the flush interval for the write to land, in requests' round trips (the median of
 * five): the flush is a Durable Object alarm and a storage write, late by as much as the machine
 * is busy, and a round trip says how busy it is. On a quiet machine the floor decides.
 */
const FLUSH_MARGIN_REQUESTS = 50
const FLUSH_MARGIN_MS = { floor: 1500, ceiling: 15_000 }
const VARS = {
  RATE_LIMIT_SHORT: '100/600',
  RATE_LIMIT_LONG: '1000/3600',
  RATE_LIMIT_FLUSH_SECONDS: String(FLUSH_SECONDS),
}
const CLIENT = { 'CF-Connecting-IP': '198.51.100.77' }

const state = mkdtempSync(join(tmpdir(), 'export-service-crash-'))
let service: LocalService | undefined
afterAll(async () => {
  await service?.stop()
  rmSync(state, { recursive: true, force: true })
})

/** One counted request from the client; its `X-RateLimit-Remaining` and `-Reset`, its time. */
async function spend(url: string): Promise<{ remaining: number; reset: number; ms: number }> {
  const started = Date.now()
  const res = await fetch(`${url}/server-api?id=999999`, { headers: CLIENT })
  expect(res.status).toBe(404)
  return {
    remaining: Number(res.headers.get('X-RateLimit-Remaining')),
    reset: Number(res.headers.get('X-RateLimit-Reset')),
    ms: Date.now() - started,
  }
}

describe('the rate limit across a crash of the whole service', () => {
  it('continues from the counts written before the crash, losing at most the last interval', async () => {
    const options = { stateDir: state, processGroup: true }
    service = await startLocalService(VARS, options)
    const times: number[] = []
    for (let i = 0; i < 5; i++) times.push((await spend(service.url)).ms)
    // One flush interval and a margin as long as the machine is slow: the five are written.
    const median = times.sort((a, b) => a - b)[2]!
    const { floor, ceiling } = FLUSH_MARGIN_MS
    const margin = Math.min(ceiling, Math.max(floor, FLUSH_MARGIN_REQUESTS * median))
    await new Promise((resolve) => setTimeout(resolve, FLUSH_SECONDS * 1000 + margin))
    // Three more, then a crash before their interval is over: these may be lost.
    for (let i = 0; i < 3; i++) await spend(service.url)
    await service.crash()

    service = await startLocalService(VARS, options)
    const after = await spend(service.url)
    // A fresh window would say 99 and 600 s.
    expect(after.remaining).toBeLessThanOrEqual(100 - 6)
    expect(after.remaining).toBeGreaterThanOrEqual(100 - 9)
    expect(after.reset).toBeLessThan(600)
  })
})
