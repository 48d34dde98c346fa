/**
 * The public endpoint from a real browser (Debian's Chromium through playwright-core): a page
 * on another origin calls the local service the way a plugin developer's site would, and the
 * try-it page is driven like a person would. The service runs with a short limit of 5 per 60 s
 * so that a 429 is cheap to reach; each test has its own client address (client-ip-proxy.ts).
 */
import { mkdirSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium } from './chromium'
import { startClientIpProxy, type ClientIpProxy } from './client-ip-proxy'
import { startPageServer, type PageServer } from './cross-origin-page'
import { fixtureExport, publishExport } from './editor-publish'
import { startLocalService, type LocalService } from './local-service'

const LIMIT = 5
const SCREENSHOTS = new URL('../../test-output/', import.meta.url)

let service: LocalService
let pageServer: PageServer
let browser: Browser
let exportId: string
let context: BrowserContext
let page: Page
let proxy: ClientIpProxy
let ipCounter = 0

beforeAll(async () => {
  ;[service, pageServer, browser] = await Promise.all([
    startLocalService({ RATE_LIMIT_SHORT: `${LIMIT}/60` }),
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

beforeEach(async () => {
  ipCounter++
  proxy = await startClientIpProxy(service.url, `203.0.113.${ipCounter}`)
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
  page = await context.newPage()
})

afterEach(async () => {
  await context.close()
  await proxy.close()
})

/** The export's URL as the browser sees the service, through this test's proxy. */
function exportUrl(id = exportId): string {
  return `${proxy.url}/server-api?id=${id}&tag=gate_1`
}

describe('a page on another origin', () => {
  beforeEach(async () => {
    await page.goto(pageServer.url)
  })

  it('reads the export and the exposed headers with credentials: "omit"', async () => {
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
        retryAfter: header('Retry-After'),
        notExposed: header('X-Content-Type-Options'),
      }
    }, exportUrl())
    expect(seen).toMatchObject({
      status: 200,
      tagged: true,
      limit: String(LIMIT),
      remaining: String(LIMIT - 1),
      policy: `"short";q=${LIMIT};w=60, "long";q=1200;w=3600`,
      retryAfter: null,
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

describe('the try-it page', () => {
  let problems: string[]

  beforeEach(async () => {
    problems = []
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      // The browser's own favicon request gets the JSON 404 of any unknown path.
      if (message.location().url.endsWith('/favicon.ico')) return
      if (message.type() === 'error') problems.push(`console: ${message.text()}`)
    })
    await page.goto(`${proxy.url}/`)
  })

  it('shows a published export as a tree, with its lifetime and the rate-limit state', async () => {
    await page.getByLabel('Publication ID').fill(exportId)
    await page.getByLabel('Tag').fill('gate_1')
    await page.getByRole('button', { name: 'Fetch export' }).click()
    const tree = page.locator('#tree .json-tree')
    await tree.waitFor()

    await expect.poll(() => page.locator('#status').textContent()).toBe(`Export ${exportId}`)
    expect(await page.locator('#expires').textContent()).toMatch(/^\d{3} s$/)
    expect(await page.locator('#rate-limit').innerText()).toMatch(
      new RegExp(`short: ${LIMIT - 1} of ${LIMIT} per 60 s left, resets in \\d+ s`),
    )
    const topKeys = await tree.locator(':scope > details > ul > li .key').allTextContents()
    expect(topKeys).toEqual(
      expect.arrayContaining(['datapack', 'meta', 'passengers', 'project_id']),
    )
    // Deeper branches start collapsed and are built when first opened.
    const keyframes = tree
      .locator('summary')
      .filter({ has: page.locator('.key', { hasText: /^anim_keyframes$/ }) })
    const branch = keyframes.locator('xpath=..')
    expect(await branch.locator(':scope > ul').count()).toBe(0)
    await keyframes.click()
    expect(await branch.locator(':scope > ul > li .key').first().textContent()).toBe('default')
    expect(await tree.locator(':scope > details').getAttribute('open')).not.toBeNull()

    mkdirSync(SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: new URL('try-it.png', SCREENSHOTS).pathname })
    expect(problems).toEqual([])
  })

  it('says what is wrong with a malformed ID without sending anything', async () => {
    await page.getByLabel('Publication ID').fill('12a456')
    await page.getByRole('button', { name: 'Fetch export' }).click()
    await expect.poll(() => page.locator('#status').textContent()).toContain('six digits')
    expect(proxy.forwarded.filter((r) => r.path.startsWith('/server-api'))).toEqual([])
    expect(problems).toEqual([])
  })

  it('shows a 429 with its wait and the spent quota', async () => {
    for (let i = 0; i < LIMIT; i++) await (await fetch(exportUrl('999999'))).arrayBuffer()
    await page.getByLabel('Publication ID').fill(exportId)
    await page.getByRole('button', { name: 'Fetch export' }).click()
    await expect
      .poll(() => page.locator('#status').textContent())
      .toMatch(/^Too many requests from this address\. Try again in \d+ s\.$/)
    expect(await page.locator('#rate-limit').innerText()).toContain(`short: 0 of ${LIMIT}`)
    mkdirSync(SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: new URL('try-it-429.png', SCREENSHOTS).pathname })
    // The page's own 429 is logged by Chromium as a failed resource load; nothing else.
    expect(problems.filter((p) => !p.includes('429'))).toEqual([])
  })
})
