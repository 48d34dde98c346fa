import { reset, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, expect, it, vi } from 'vitest'
import { clientKey } from '../../src/rate-limit/client-key'
import { WINDOWS_KEY } from '../../src/rate-limit/rate-limiter'
import { callWithEnv } from '../support/helpers'

const SMALL = { RATE_LIMIT_SHORT: '3/10', RATE_LIMIT_LONG: '5/100' }
const T0 = Date.UTC(2030, 0, 1)

function get(ip: string): Promise<Response> {
  return callWithEnv(SMALL, '/server-api?id=999999', { headers: { 'CF-Connecting-IP': ip } })
}

/** What the client's limiter object holds: its stored keys and its alarm time. */
function inspect(ip: string): Promise<{ keys: string[]; alarm: number | null }> {
  return runInDurableObject(env.RATE_LIMITER.getByName(clientKey(ip)), async (_, state) => ({
    keys: [...state.storage.kv.list()].map(([key]) => key),
    alarm: await state.storage.getAlarm(),
  }))
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

it('deletes the stored windows once both have lapsed, and not before', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(T0)
  const ip = '203.0.113.50'
  await get(ip)
  expect(await inspect(ip)).toEqual({ keys: [WINDOWS_KEY], alarm: T0 + 100_000 })

  // An early alarm (the short window has lapsed, the long one has not) keeps the state.
  vi.setSystemTime(T0 + 50_000)
  expect(await runDurableObjectAlarm(env.RATE_LIMITER.getByName(clientKey(ip)))).toBe(true)
  expect(await inspect(ip)).toEqual({ keys: [WINDOWS_KEY], alarm: T0 + 100_000 })

  vi.setSystemTime(T0 + 100_000)
  expect(await runDurableObjectAlarm(env.RATE_LIMITER.getByName(clientKey(ip)))).toBe(true)
  expect(await inspect(ip)).toEqual({ keys: [], alarm: null })

  const res = await get(ip)
  expect(res.headers.get('RateLimit')).toBe('"short";r=2;t=10, "long";r=4;t=100')
})

it('moves the cleanup alarm to the latest window reset when a window starts again', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  const ip = '203.0.113.51'
  vi.setSystemTime(T0)
  await get(ip)
  vi.setSystemTime(T0 + 20_000)
  await get(ip)
  expect((await inspect(ip)).alarm).toBe(T0 + 100_000)
  vi.setSystemTime(T0 + 130_000)
  await get(ip)
  expect((await inspect(ip)).alarm).toBe(T0 + 230_000)
})
