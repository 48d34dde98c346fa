import { reset, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, expect, it, vi } from 'vitest'
import { clientKey } from '../../src/rate-limit/client-key'
import { WINDOWS_KEY } from '../../src/rate-limit/rate-limiter'
import type { WindowState } from '../../src/rate-limit/windows'
import { callWithEnv } from '../support/helpers'

const SMALL = { RATE_LIMIT_SHORT: '3/10', RATE_LIMIT_LONG: '5/100' }
const T0 = Date.UTC(2030, 0, 1)

function get(ip: string): Promise<Response> {
  return callWithEnv(SMALL, '/server-api?id=999999', { headers: { 'CF-Connecting-IP': ip } })
}

/** What the client's limiter object holds: its stored windows and its alarm time. */
function inspect(
  ip: string,
): Promise<{ windows: Record<string, WindowState> | undefined; alarm: number | null }> {
  return runInDurableObject(env.RATE_LIMITER.getByName(clientKey(ip)), async (_, state) => ({
    windows: state.storage.kv.get<Record<string, WindowState>>(WINDOWS_KEY),
    alarm: await state.storage.getAlarm(),
  }))
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

it('stores a lone request as its two windows, with no alarm to wake the object again', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(T0)
  const ip = '203.0.113.50'
  await get(ip)
  expect(await inspect(ip)).toEqual({
    windows: {
      short: { count: 1, resetAt: T0 + 10_000 },
      long: { count: 1, resetAt: T0 + 100_000 },
    },
    alarm: null,
  })
})

it('writes new windows over lapsed ones at the next request', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  const ip = '203.0.113.51'
  vi.setSystemTime(T0)
  await get(ip)
  vi.setSystemTime(T0 + 130_000)
  const res = await get(ip)
  expect(res.headers.get('RateLimit')).toBe('"short";r=2;t=10, "long";r=4;t=100')
  expect(await inspect(ip)).toEqual({
    windows: {
      short: { count: 1, resetAt: T0 + 140_000 },
      long: { count: 1, resetAt: T0 + 230_000 },
    },
    alarm: null,
  })
})
