/**
 * The public endpoint from a real browser (Debian's Chromium through playwright-core): a page
 * on another origin calls the local service the way a plugin developer's site would. (The
 * try-it page has its own browser tests, in web/try-it/test/e2e/.) The service runs with a
 * short limit of 5 per 60 s so that a 429 is cheap to reach; each test has its own client
 * address (client-ip-proxy.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium'
import type { ClientIpProxy } from './client-ip-proxy'
import { pagePerTest } from './page-per-test'
import { startPageServer, type PageServer } from './cross-origin-page'
import { fixtureExport, publishExport } from './editor-publish'
import { startLocalService, type LocalService } from './local-service'

const LIMIT = 5
/** The deployment announces the tag's use deprecated, as every request here sends one. */
const DEPRECATIONS = JSON.stringify([
  {
    use: '/server-api?tag',
    deprecated: '2027-01-04',
    sunset: '2028-01-05',
    link: 'https://models.example.com/docs',
  },
])

let service: LocalService
let pageServer: PageServer
let browser: Browser
let exportId: string
let page: Page
let proxy: ClientIpProxy

beforeAll(async () => {
  ;[service, pageServer, browser] = await Promise.all([
    // EXPORT_POLICY=off: the page must also show what such a service serves (unreadable SNBT).
    startLocalService({ RATE_LIMIT_SHORT: `${LIMIT}/60`, EXPORT_POLICY: 'off', DEPRECATIONS }),
    startPageServer(),
    launchChromium(),
  ])
  exportId = (await publishExport(service, fixtureExport('animated-80-displays'))).id
})

afterAll(async () => {
  await browser?.close()
  await pageServer?.close()
  await service?.stop()
})

const perTest = pagePerTest(() => ({ serviceUrl: service.url, browser }))
beforeEach(() => {
  ;({ page, proxy } = perTest.current())
})

/** The export's URL as the browser sees the service, through this test's proxy. */
const exportUrl = (id = exportId): string => perTest.exportUrl(id)

describe('a page on another origin', () => {
  beforeEach(async () => {
    await page.goto(pageServer.url)
  })

  it('reads the export and the exposed headers (a deprecation too) with credentials: "omit"', async () => {
    const seen = await page.evaluate(async (url) => {
      const res = await fetch(url, { credentials: 'omit' })
      const body = (await res.json()) as { content: { project_id: string } }
      const text = JSON.stringify(body.content)
      const header = (name: string) => res.headers.get(name)
      return {
        status: res.status,
        projectId: body.content.project_id,
        tagged: text.includes('tag=gate_1_0') && !text.includes('[MODELSERVERTAG]'),
        limit: header('X-RateLimit-Limit'),
        remaining: header('X-RateLimit-Remaining'),
        reset: header('X-RateLimit-Reset'),
        rateLimit: header('RateLimit'),
        policy: header('RateLimit-Policy'),
        expiresIn: header('X-Export-Expires-In'),
        servedTag: header('X-Export-Tag'),
        retryAfter: header('Retry-After'),
        deprecation: header('Deprecation'),
        sunset: header('Sunset'),
        link: header('Link'),
        notExposed: header('X-Content-Type-Options'),
      }
    }, exportUrl())
    expect(seen).toMatchObject({
      status: 200,
      tagged: true,
      limit: String(LIMIT),
      remaining: String(LIMIT - 1),
      policy: `"short";q=${LIMIT};w=60, "long";q=1200;w=3600`,
      servedTag: 'gate_1',
      retryAfter: null,
      deprecation: '@1799020800',
      sunset: 'Wed, 05 Jan 2028 00:00:00 GMT',
      link: '<https://models.example.com/docs>; rel="deprecation"',
      // Not in Access-Control-Expose-Headers, so the browser hides it: CORS is really at work.
      notExposed: null,
    })
    expect(seen.projectId).toEqual(expect.any(String))
    expect(Number(seen.reset)).toBeGreaterThan(0)
    expect(Number(seen.reset)).toBeLessThanOrEqual(60)
    expect(seen.rateLimit).toMatch(/^"short";r=4;t=\d+, "long";r=1199;t=\d+$/)
    expect(Number(seen.expiresIn)).toBeGreaterThan(500)
    expect(Number(seen.expiresIn)).toBeLessThanOrEqual(600)
    // A simple request: no preflight, and the browser said where it came from.
    expect(proxy.forwarded.map((r) => r.method)).toEqual(['GET'])
    expect(proxy.forwarded[0]?.headers.origin).toBe(pageServer.url)
  })

  it('fails with credentials: "include", as the wildcard origin requires', async () => {
    const outcome = await page.evaluate(async (url) => {
      try {
        const res = await fetch(url, { credentials: 'include' })
        return `read status ${res.status}`
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`
      }
    }, exportUrl())
    expect(outcome).toBe('TypeError: Failed to fetch')
  })

  it('preflights a request with a custom header, which then succeeds; the preflight is free', async () => {
    const seen = await page.evaluate(async (url) => {
      const res = await fetch(url, { headers: { 'X-Plugin-Version': '2.4.1' } })
      await res.arrayBuffer()
      return { status: res.status, remaining: res.headers.get('X-RateLimit-Remaining') }
    }, exportUrl())
    expect(proxy.forwarded.map((r) => `${r.method} ${r.status}`)).toEqual([
      'OPTIONS 204',
      'GET 200',
    ])
    expect(proxy.forwarded[0]?.headers['access-control-request-headers']).toBe('x-plugin-version')
    // Only the GET counted.
    expect(seen).toEqual({ status: 200, remaining: String(LIMIT - 1) })
  })

  it('reads a 429: its status, Retry-After and error body', async () => {
    const seen = await page.evaluate(
      async ({ url, limit }) => {
        for (let i = 0; i < limit; i++) await (await fetch(url)).arrayBuffer()
        const res = await fetch(url)
        return {
          status: res.status,
          retryAfter: res.headers.get('Retry-After'),
          remaining: res.headers.get('X-RateLimit-Remaining'),
          body: (await res.json()) as { error: { code: string; retryAfterSeconds: number } },
        }
      },
      { url: exportUrl(), limit: LIMIT },
    )
    expect(seen.status).toBe(429)
    expect(seen.remaining).toBe('0')
    expect(Number(seen.retryAfter)).toBeGreaterThan(0)
    expect(Number(seen.retryAfter)).toBeLessThanOrEqual(60)
    expect(seen.body.error).toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: Number(seen.retryAfter),
    })
  })
})
