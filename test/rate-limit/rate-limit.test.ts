import { evictAllDurableObjects, reset, runDurableObjectAlarm } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clientAddress } from '../../src/rate-limit/testing'
import { call, callWithEnv, storeExport } from '../support/helpers'

/** Small windows, so tests reach the limits in a few requests. */
const SMALL = { RATE_LIMIT_SHORT: '3/10', RATE_LIMIT_LONG: '5/100' }
const T0 = Date.UTC(2030, 0, 1)
const UNKNOWN_ID = '/server-api?id=999999'

/** A request from `ip`, through the real Worker with the given windows. */
function from(
  ip: string,
  path = UNKNOWN_ID,
  init: { method?: string; headers?: Record<string, string> } = {},
  vars: Partial<Cloudflare.Env> = SMALL,
): Promise<Response> {
  return callWithEnv(vars, path, {
    method: init.method ?? 'GET',
    headers: { 'CF-Connecting-IP': ip, ...init.headers },
  })
}

/** The legacy trio as `limit/remaining/reset`, or null when absent. */
function trio(res: Response): string | null {
  const limit = res.headers.get('X-RateLimit-Limit')
  if (limit === null) return null
  return `${limit}/${res.headers.get('X-RateLimit-Remaining')}/${res.headers.get('X-RateLimit-Reset')}`
}

/** Moves the clock (Worker and Durable Objects alike) to `T0 + seconds`. */
function at(seconds: number): void {
  vi.setSystemTime(T0 + seconds * 1000)
}

/** Asserts a 429 whose `Retry-After` and body agree on `seconds`. */
async function expectRefused(res: Response, seconds: number): Promise<void> {
  expect(res.status).toBe(429)
  expect(res.headers.get('Retry-After')).toBe(String(seconds))
  const body = await res.json<{ error: { code: string; retryAfterSeconds: number } }>()
  expect(body.error.code).toBe('rate_limited')
  expect(body.error.retryAfterSeconds).toBe(seconds)
}

afterEach(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  await reset()
})

describe('rate limits per client address', () => {
  it('applies the default windows from wrangler.toml and names both in the draft fields', async () => {
    const res = await call(UNKNOWN_ID, { headers: { 'CF-Connecting-IP': '192.0.2.1' } })
    expect(res.status).toBe(404)
    expect(trio(res)).toBe('120/119/60')
    expect(res.headers.get('RateLimit-Policy')).toBe('"short";q=120;w=60, "long";q=1200;w=3600')
    expect(res.headers.get('RateLimit')).toBe('"short";r=119;t=60, "long";r=1199;t=3600')
  })

  it('puts the headers on every counted response: 200, 400 and 404 alike', async () => {
    await storeExport('123456', '{"content":{"Tags":["[MODELSERVERTAG]_root"]}}')
    const ok = await from('192.0.2.2', '/server-api?id=123456&tag=a')
    const invalid = await from('192.0.2.2', '/server-api?id=abc')
    const unknown = await from('192.0.2.2', UNKNOWN_ID)
    expect([ok.status, invalid.status, unknown.status]).toEqual([200, 400, 404])
    expect([trio(ok), trio(invalid), trio(unknown)]).toEqual(['3/2/10', '3/1/10', '3/0/10'])
  })

  it('gives each client address its own quota', async () => {
    for (let i = 0; i < 3; i++) await from('192.0.2.3')
    expect((await from('192.0.2.3')).status).toBe(429)
    const other = await from('192.0.2.4')
    expect(other.status).toBe(404)
    expect(trio(other)).toBe('3/2/10')
  })

  it('makes every id and tag from one address (a NAT) share one quota', async () => {
    await storeExport('123456', '{"content":{"Tags":["[MODELSERVERTAG]_root"]}}')
    const statuses = []
    for (const path of [
      '/server-api?id=123456&tag=a',
      '/server-api?id=123456&tag=b',
      '/server-api?id=654321',
    ]) {
      statuses.push((await from('192.0.2.5', path)).status)
    }
    expect(statuses).toEqual([200, 200, 404])
    expect((await from('192.0.2.5', '/server-api?id=123456&tag=c')).status).toBe(429)
  })

  it('counts requests with an invalid or missing id', async () => {
    for (const path of ['/server-api?id=abc', '/server-api', '/server-api?id=12']) {
      expect((await from('192.0.2.6', path)).status).toBe(400)
    }
    await expectRefused(await from('192.0.2.6', '/server-api?id=abc'), 10)
  })

  it('counts HEAD, and answers a refused HEAD with the headers and no body', async () => {
    expect(trio(await from('192.0.2.7', UNKNOWN_ID, { method: 'HEAD' }))).toBe('3/2/10')
    await from('192.0.2.7')
    await from('192.0.2.7')
    const refused = await from('192.0.2.7', UNKNOWN_ID, { method: 'HEAD' })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('10')
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBe('*')
    expect(trio(refused)).toBe('3/0/10')
    expect(await refused.text()).toBe('')
  })

  it('lets OPTIONS preflights and other methods through without spending quota', async () => {
    const preflight = {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'GET' },
    }
    for (let i = 0; i < 5; i++) {
      const res = await from('192.0.2.8', UNKNOWN_ID, preflight)
      expect(res.status).toBe(204)
      expect(trio(res)).toBeNull()
    }
    const post = await from('192.0.2.8', UNKNOWN_ID, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(trio(post)).toBeNull()
    expect(trio(await from('192.0.2.8'))).toBe('3/2/10')
  })

  it('answers 429 with CORS headers, exposed rate-limit headers and an uncached JSON body', async () => {
    for (let i = 0; i < 3; i++) await from('192.0.2.9')
    const res = await from('192.0.2.9', UNKNOWN_ID, { headers: { Origin: 'https://example.com' } })
    expect(res.status).toBe(429)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('Retry-After')
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('X-RateLimit-Remaining')
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
  })

  it('admits exactly the limit out of 100 concurrent requests', async () => {
    const vars = { RATE_LIMIT_SHORT: '10/60', RATE_LIMIT_LONG: '1000/3600' }
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => from('192.0.2.10', UNKNOWN_ID, {}, vars)),
    )
    const admitted = responses.filter((res) => res.status === 404)
    expect(admitted).toHaveLength(10)
    expect(responses.filter((res) => res.status === 429)).toHaveLength(90)
    const remaining = admitted.map((res) => Number(res.headers.get('X-RateLimit-Remaining')))
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('keeps counting after the limiter object is evicted from memory', async () => {
    await from('192.0.2.11')
    await from('192.0.2.11')
    // Idle eviction comes 10 s after the last request, the flush alarm before it.
    await runDurableObjectAlarm(env.RATE_LIMITER.getByName(clientAddress('192.0.2.11').key))
    await evictAllDurableObjects()
    expect(trio(await from('192.0.2.11'))).toBe('3/0/10')
    expect((await from('192.0.2.11')).status).toBe(429)
  })
})

describe('rate limit windows over time', () => {
  it('reports the window nearest exhaustion at every step, through both windows', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const ip = '198.51.100.1'
    const steps: [number, number, string, string][] = []
    async function step(seconds: number): Promise<Response> {
      at(seconds)
      const res = await from(ip)
      steps.push([seconds, res.status, trio(res) ?? '', res.headers.get('RateLimit') ?? ''])
      return res
    }
    await step(0)
    await step(2.5)
    await step(5)
    await expectRefused(await step(5), 5)
    await step(10)
    await step(10)
    await expectRefused(await step(10), 90)
    await step(100)
    expect(steps).toEqual([
      [0, 404, '3/2/10', '"short";r=2;t=10, "long";r=4;t=100'],
      [2.5, 404, '3/1/8', '"short";r=1;t=8, "long";r=3;t=98'],
      [5, 404, '3/0/5', '"short";r=0;t=5, "long";r=2;t=95'],
      [5, 429, '3/0/5', '"short";r=0;t=5, "long";r=2;t=95'],
      [10, 404, '5/1/90', '"short";r=2;t=10, "long";r=1;t=90'],
      [10, 404, '5/0/90', '"short";r=1;t=10, "long";r=0;t=90'],
      [10, 429, '5/0/90', '"short";r=1;t=10, "long";r=0;t=90'],
      [100, 404, '3/2/10', '"short";r=2;t=10, "long";r=4;t=100'],
    ])
  })

  it('resets the short window exactly one period after its first request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const ip = '198.51.100.2'
    at(0)
    await from(ip)
    at(4)
    await from(ip)
    await from(ip)
    await expectRefused(await from(ip), 6)
    at(9.999)
    await expectRefused(await from(ip), 1)
    at(10)
    const res = await from(ip)
    expect(res.status).toBe(404)
    expect(res.headers.get('RateLimit')).toBe('"short";r=2;t=10, "long";r=1;t=90')
  })

  it('refuses by the long window after several short windows, until the long one resets', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const ip = '198.51.100.3'
    const vars = { RATE_LIMIT_SHORT: '2/10', RATE_LIMIT_LONG: '5/100' }
    const get = () => from(ip, UNKNOWN_ID, {}, vars)
    for (const start of [0, 10]) {
      at(start)
      expect((await get()).status).toBe(404)
      expect((await get()).status).toBe(404)
      await expectRefused(await get(), 10)
    }
    at(20)
    expect((await get()).status).toBe(404)
    const refused = await get()
    await expectRefused(refused, 80)
    expect(trio(refused)).toBe('5/0/80')
    at(30)
    await expectRefused(await get(), 70)
    at(100)
    expect((await get()).status).toBe(404)
  })

  it('describes the window that resets later when both refuse or both have as many left', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const vars = { RATE_LIMIT_SHORT: '2/10', RATE_LIMIT_LONG: '2/100' }
    expect(trio(await from('198.51.100.4', UNKNOWN_ID, {}, vars))).toBe('2/1/100')
    expect(trio(await from('198.51.100.4', UNKNOWN_ID, {}, vars))).toBe('2/0/100')
    const refused = await from('198.51.100.4', UNKNOWN_ID, {}, vars)
    await expectRefused(refused, 100)
    expect(trio(refused)).toBe('2/0/100')
  })
})

describe('who counts as one client', () => {
  it('groups IPv6 addresses by /64, however they are written', async () => {
    const sameNetwork = [
      '2001:db8:1:2::1',
      '2001:DB8:1:2:FFFF:ffff:0:9',
      '2001:0db8:0001:0002:0:0:0:abcd',
    ]
    const remaining = []
    for (const ip of sameNetwork) remaining.push(trio(await from(ip)))
    expect(remaining).toEqual(['3/2/10', '3/1/10', '3/0/10'])
    expect((await from('2001:db8:1:2::ffff:1.2.3.4')).status).toBe(429)
    expect(trio(await from('2001:db8:1:3::1'))).toBe('3/2/10')
  })

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    await from('192.0.2.20')
    await from('::ffff:192.0.2.20')
    expect(trio(await from('::FFFF:c000:214'))).toBe('3/0/10')
  })

  it('ignores X-Forwarded-For and X-Real-IP, which the client can forge', async () => {
    for (let i = 0; i < 3; i++) {
      const forged = { 'X-Forwarded-For': `203.0.113.${i}`, 'X-Real-IP': `203.0.113.${i}` }
      await from('192.0.2.21', UNKNOWN_ID, { headers: forged })
    }
    const forged = { 'X-Forwarded-For': '203.0.113.99', 'X-Real-IP': '203.0.113.99' }
    expect((await from('192.0.2.21', UNKNOWN_ID, { headers: forged })).status).toBe(429)
    expect(trio(await from('192.0.2.22', UNKNOWN_ID, { headers: forged }))).toBe('3/2/10')
  })
})

describe('when the limiter cannot answer', () => {
  /** A namespace whose objects answer `hit` with `answer`; the middleware uses nothing else. */
  function limiterThat(answer: () => Promise<never>): Cloudflare.Env['RATE_LIMITER'] {
    return { getByName: () => ({ hit: answer }) } as unknown as Cloudflare.Env['RATE_LIMITER']
  }

  /** The limiter's own log lines: other work of the isolate may log in the same moment. */
  function limiterLogs(log: { mock: { calls: unknown[][] } }, incident: string): unknown[][] {
    return log.mock.calls.filter(([line]) => (line as { incident?: string }).incident === incident)
  }

  /** Asserts the answer to a request without a verdict: 503, the same whatever the ID. */
  async function expectUnanswered(res: Response): Promise<void> {
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('5')
    expect(trio(res)).toBeNull()
    expect(res.headers.get('RateLimit')).toBeNull()
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
    const body = await res.text()
    // A HEAD gets the GET's headers and no body.
    if (body !== '') {
      expect(JSON.parse(body)).toMatchObject({ code: 'unavailable', retryAfterSeconds: 5 })
    }
  }

  it.each([
    ['throws', () => Promise.reject(new Error('boom'))],
    ['is overloaded', () => Promise.reject(new Error('Durable Object is overloaded.'))],
  ])('answers 503 to hits and misses alike when the object %s, and logs it', async (_, answer) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport('123456', '{"content":{}}')
    const vars = { ...SMALL, RATE_LIMITER: limiterThat(answer) }
    for (const path of ['/server-api?id=123456', UNKNOWN_ID, '/server-api?id=abc']) {
      await expectUnanswered(await from('192.0.2.30', path, {}, vars))
      await expectUnanswered(await from('192.0.2.30', path, { method: 'HEAD' }, vars))
    }
    expect(limiterLogs(log, 'limiter_failed_closed')).toHaveLength(6)
  })

  it('stops waiting for a limiter that hangs and answers 503, hit or miss', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport('123456', '{"content":{}}')
    // It never answers: an answer at all is the limiter timeout at work.
    const hangs = limiterThat(() => new Promise<never>(() => {}))
    const vars = { ...SMALL, RATE_LIMITER: hangs }
    await expectUnanswered(await from('192.0.2.31', '/server-api?id=123456', {}, vars))
    await expectUnanswered(await from('192.0.2.31', UNKNOWN_ID, {}, vars))
    expect(limiterLogs(log, 'limiter_failed_closed')).toHaveLength(2)
  })

  it('answers a miss it could not count as a miss, and counts it in the isolate instead', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport('123456', '{"content":{}}')
    // Verdicts come from the real objects; every miss count fails.
    const uncounted = {
      getByName(name: string) {
        const real = env.RATE_LIMITER.getByName(name)
        const overloaded = () => Promise.reject(new Error('Durable Object is overloaded.'))
        return {
          hit: (...args: Parameters<typeof real.hit>) => real.hit(...args),
          miss: overloaded,
          networkMiss: overloaded,
        }
      },
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    const vars = { RATE_LIMIT_PREFIX_MISSES: '3/600', RATE_LIMITER: uncounted }
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await from(`192.0.77.${40 + i}`, UNKNOWN_ID, {}, vars)).status)
    // Answered as what they are (a 503 for misses alone would say which IDs are dead).
    expect(statuses).toEqual([404, 404, 404, 404])
    expect(limiterLogs(log, 'limiter_miss_unreported')).toHaveLength(8)
    // The budget and the breach counted in this isolate: its strangers are refused, hits too.
    const refused = await from('192.0.77.50', '/server-api?id=123456', {}, vars)
    expect(refused.status).toBe(429)
    expect(await refused.text()).toMatch(/this network asked for exports/)
  })
})

describe('a client that keeps sending while refused', () => {
  /** The real limiter namespace, counting the calls that reach an object. */
  function countingLimiter(): { namespace: Cloudflare.Env['RATE_LIMITER']; calls: () => number } {
    let calls = 0
    const real = env.RATE_LIMITER
    const namespace = {
      getByName(name: string) {
        const stub = real.getByName(name)
        return {
          hit: (...args: Parameters<typeof stub.hit>) => {
            calls++
            return stub.hit(...args)
          },
          miss: (...args: Parameters<typeof stub.miss>) => stub.miss(...args),
          networkMiss: (...args: Parameters<typeof stub.networkMiss>) => stub.networkMiss(...args),
        }
      },
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    return { namespace, calls: () => calls }
  }

  it('is refused from memory, with the limiter’s own answer, until it may retry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const limiter = countingLimiter()
    const vars = { ...SMALL, RATE_LIMITER: limiter.namespace }
    for (let i = 0; i < 3; i++)
      expect((await from('192.0.2.90', UNKNOWN_ID, {}, vars)).status).toBe(404)
    await expectRefused(await from('192.0.2.90', UNKNOWN_ID, {}, vars), 10)
    expect(limiter.calls()).toBe(4)

    at(2.5)
    for (let i = 0; i < 20; i++) {
      const res = await from('192.0.2.90', UNKNOWN_ID, {}, vars)
      await expectRefused(res, 8)
      expect(trio(res)).toBe('3/0/8')
      expect(res.headers.get('RateLimit')).toBe('"short";r=0;t=8, "long";r=2;t=98')
    }
    expect(limiter.calls()).toBe(4)

    at(10)
    const admitted = await from('192.0.2.90', UNKNOWN_ID, {}, vars)
    expect(admitted.status).toBe(404)
    expect(trio(admitted)).toBe('5/1/90')
    expect(limiter.calls()).toBe(5)
  })
})
