/**
 * Announcements: a deployment that marks a route, or a query parameter's use, deprecated (the
 * `DEPRECATIONS` var, replaced here as tests replace any var) answers exactly as before plus
 * `Deprecation`, `Sunset` and `Link`, readable from a browser, and names the use in its log line
 * and data point. Nothing is deprecated by default.
 */
import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { deprecatedUses } from '../../src/deprecation'
import { METRIC_BLOBS } from '../../src/observability'
import { call, callWithEnv, storeExport } from '../support/helpers'
import { captureLog, recordingDataset } from '../support/observed'

const ID = '241235'
const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root"],"project_id":"p-1"}}'
const ROUTE_DOCS = 'https://models.example.com/docs/api#compatibility'
const TAG_DOCS = 'https://models.example.com/docs/api#tag'
/** 2027-01-04T00:00:00Z and 2027-07-05T00:00:00Z. */
const ROUTE = {
  use: '/server-api',
  deprecated: '2027-01-04',
  sunset: '2027-07-05',
  link: ROUTE_DOCS,
}
const TAG = {
  use: '/server-api?tag',
  deprecated: '2026-12-01T12:00:00Z',
  sunset: '2027-09-01',
  link: TAG_DOCS,
}
const NEW_HEADERS = ['deprecation', 'sunset', 'link']

let ipCounter = 0
/** A client address of its own, so no request spends another's quota. */
function nextIp(): string {
  return `198.51.100.${++ipCounter}`
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
  line: Record<string, unknown>
  blobs: Record<string, unknown>
}

/** A request through the Worker with `deprecations` set, as a caller and the operator see it. */
async function ask(path: string, deprecations: object[], init: RequestInit = {}): Promise<Answer> {
  const log = captureLog()
  const { dataset, points } = recordingDataset()
  const headers = new Headers(init.headers)
  headers.set('CF-Connecting-IP', nextIp())
  const vars = {
    METRICS: dataset,
    DEPRECATIONS: deprecations.length ? JSON.stringify(deprecations) : '',
  }
  const response = await callWithEnv(vars, path, { ...init, headers })
  const body = await response.text()
  vi.restoreAllMocks()
  const lines = log.lines().filter((line) => line.event !== 'incident')
  expect(lines).toHaveLength(1)
  expect(points).toHaveLength(1)
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    line: lines[0]!,
    blobs: Object.fromEntries(METRIC_BLOBS.map(([name], i) => [name, points[0]!.blobs?.[i]])),
  }
}

/** Everything but the announcement and the line's timing: what must not change. */
function rest(answer: Answer): unknown {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => !NEW_HEADERS.includes(name)),
  )
  const { ms: _ms, deprecated: _deprecated, ...line } = answer.line
  const { deprecated_use: _use, ...blobs } = answer.blobs
  return { status: answer.status, headers, body: answer.body, line, blobs }
}

beforeEach(async () => {
  // One moment for both deployments, so the lifetime and window headers agree to the second.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.parse('2026-12-15T10:00:00Z'))
  await storeExport(ID, DOC)
  await storeExport('400000', DOC, { publishedAt: Date.now() - 700_000 })
})
afterEach(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  await reset()
})

describe('a deployment that deprecates nothing (the default)', () => {
  it('announces nothing and logs no deprecated use', async () => {
    const answer = await ask(`/server-api?id=${ID}&tag=x`, [])
    for (const name of NEW_HEADERS) expect(answer.headers[name]).toBeUndefined()
    expect(answer.line).not.toHaveProperty('deprecated')
    expect(answer.blobs.deprecated_use).toBe('')
  })

  it('still lets browsers read the announcement headers, should they come', async () => {
    const res = await call(`/server-api?id=${ID}`)
    const exposed = res.headers.get('Access-Control-Expose-Headers')!.split(', ')
    expect(exposed).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']))
  })
})

describe('a deprecated route', () => {
  it.each([
    ['200', `/server-api?id=${ID}&tag=x`, 'GET', 200],
    ['200 through the trailing slash', `/server-api/?id=${ID}`, 'GET', 200],
    ['HEAD', `/server-api?id=${ID}`, 'HEAD', 200],
    ['400', '/server-api?id=12', 'GET', 400],
    ['404', '/server-api?id=999999', 'GET', 404],
    ['410', '/server-api?id=400000', 'GET', 410],
    ['405', `/server-api?id=${ID}`, 'POST', 405],
  ] as const)('answers a %s as before, announced and counted', async (_, path, method, status) => {
    const before = await ask(path, [], { method })
    const after = await ask(path, [ROUTE], { method })
    expect(after.status).toBe(status)
    expect(after.headers).toMatchObject({
      deprecation: '@1799020800',
      sunset: 'Mon, 05 Jul 2027 00:00:00 GMT',
      link: `<${ROUTE_DOCS}>; rel="deprecation"`,
    })
    expect(after.line.deprecated).toEqual(['/server-api'])
    expect(after.blobs.deprecated_use).toBe('/server-api')
    expect(rest(after)).toEqual(rest(before))
  })

  it('answers a 429 announced too', async () => {
    const headers = { 'CF-Connecting-IP': '203.0.113.9' }
    const vars = { RATE_LIMIT_SHORT: '1/60', DEPRECATIONS: JSON.stringify([ROUTE]) }
    await callWithEnv(vars, `/server-api?id=${ID}`, { headers })
    const res = await callWithEnv(vars, `/server-api?id=${ID}`, { headers })
    expect(res.status).toBe(429)
    expect(res.headers.get('Deprecation')).toBe('@1799020800')
  })

  it('leaves preflights and other routes alone', async () => {
    const preflight = await ask(`/server-api?id=${ID}`, [ROUTE], {
      method: 'OPTIONS',
      headers: { Origin: 'https://plugin.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.deprecation).toBeUndefined()
    const other = await ask('/openapi.json', [ROUTE])
    expect(other.headers.deprecation).toBeUndefined()
    expect(other.line).not.toHaveProperty('deprecated')
  })

  it('can be the OpenAPI document', async () => {
    const answer = await ask('/openapi.json', [{ ...ROUTE, use: '/openapi.json' }])
    expect(answer.status).toBe(200)
    expect(answer.headers.deprecation).toBe('@1799020800')
    expect(answer.blobs).toMatchObject({ route: 'openapi', deprecated_use: '/openapi.json' })
  })
})

describe('a deprecated parameter', () => {
  it('is announced when the request names it, even empty, and counted by route', async () => {
    for (const path of [`/server-api?id=${ID}&tag=x`, `/server-api?tag=&id=${ID}`]) {
      const before = await ask(path, [])
      const after = await ask(path, [TAG])
      expect(after.headers).toMatchObject({
        deprecation: '@1796126400',
        sunset: 'Wed, 01 Sep 2027 00:00:00 GMT',
        link: `<${TAG_DOCS}>; rel="deprecation"`,
      })
      expect(after.line.deprecated).toEqual(['/server-api?tag'])
      expect(after.blobs).toMatchObject({ route: 'retrieve', deprecated_use: '/server-api?tag' })
      expect(rest(after)).toEqual(rest(before))
    }
  })

  it('is not announced to a request without it, nor for a name in another case', async () => {
    for (const path of [`/server-api?id=${ID}`, `/server-api?id=${ID}&Tag=x`]) {
      const answer = await ask(path, [TAG])
      for (const name of NEW_HEADERS) expect(answer.headers[name]).toBeUndefined()
      expect(answer.blobs.deprecated_use).toBe('')
    }
  })

  it('with the route also deprecated: the earliest dates, both links, both uses', async () => {
    const answer = await ask(`/server-api?id=${ID}&tag=x`, [ROUTE, TAG])
    expect(answer.headers).toMatchObject({
      deprecation: '@1796126400',
      sunset: 'Mon, 05 Jul 2027 00:00:00 GMT',
      link: `<${ROUTE_DOCS}>; rel="deprecation", <${TAG_DOCS}>; rel="deprecation"`,
    })
    expect(answer.line.deprecated).toEqual(['/server-api', '/server-api?tag'])
    expect(answer.blobs.deprecated_use).toBe('/server-api /server-api?tag')
  })
})

describe('the setting', () => {
  it.each([
    ['not JSON', 'x', /not JSON/],
    ['not an array', '{}', /JSON array/],
    ['an unknown route', JSON.stringify([{ ...ROUTE, use: '/v2/server-api' }]), /"use" must be/],
    ['the editor API', JSON.stringify([{ ...ROUTE, use: '/editor-api/exports' }]), /"use"/],
    ['a date that is not one', JSON.stringify([{ ...ROUTE, sunset: 'soon' }]), /"sunset" must/],
    ['a sunset before it', JSON.stringify([{ ...ROUTE, sunset: '2026-01-01' }]), /before/],
    ['a link that is not a URL', JSON.stringify([{ ...ROUTE, link: 'docs' }]), /"link"/],
  ])('refuses %s, naming the setting', (_, raw, problem) => {
    expect(() => deprecatedUses({ ...env, DEPRECATIONS: raw })).toThrow(problem)
    expect(() => deprecatedUses({ ...env, DEPRECATIONS: raw })).toThrow(/^DEPRECATIONS /)
  })

  it('reads a route with its trailing slash, and a parameter', () => {
    expect(
      deprecatedUses({
        ...env,
        DEPRECATIONS: JSON.stringify([{ ...TAG, use: '/server-api/?tag' }]),
      }),
    ).toEqual([
      {
        use: '/server-api/?tag',
        route: '/server-api',
        parameter: 'tag',
        deprecatedAt: Date.parse('2026-12-01T12:00:00Z'),
        sunsetAt: Date.parse('2027-09-01T00:00:00Z'),
        link: TAG_DOCS,
      },
    ])
  })

  it('fails every request with a logged 500 when malformed, rather than announce nothing', async () => {
    const log = captureLog()
    const res = await callWithEnv({ DEPRECATIONS: '[{"use":"/nowhere"}]' }, `/server-api?id=${ID}`)
    vi.restoreAllMocks()
    expect(res.status).toBe(500)
    expect(JSON.stringify(log.lines())).toContain('DEPRECATIONS')
  })
})
