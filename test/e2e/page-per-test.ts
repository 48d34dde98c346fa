/**
 * A browser page of its own for each test: a fresh context behind a client-IP proxy
 * (client-ip-proxy.ts), so that each test is a client of its own with its own rate-limit quota,
 * closed after the test. Shared by the browser tests of the public endpoint (browser.test.ts) and
 * of the try-it page (web/try-it/test/e2e/page.test.ts).
 */
import { afterEach, beforeEach } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startClientIpProxy, type ClientIpProxy } from './client-ip-proxy'

/** The current test's page and the proxy its requests to the service go through. */
export interface TestPage {
  page: Page
  proxy: ClientIpProxy
}

/**
 * Registers the hooks (call it at the top level of a test file, after the service and the
 * browser are started in `beforeAll`); `current()` gives the running test's page and proxy,
 * `exportUrl(id)` the URL of an export as the browser sees the service, through that proxy.
 */
export function pagePerTest(started: () => { serviceUrl: string; browser: Browser }): {
  current(): TestPage
  exportUrl(id: string): string
} {
  let tests = 0
  let context: BrowserContext | undefined
  let current: TestPage | undefined
  beforeEach(async () => {
    tests++
    const { serviceUrl, browser } = started()
    const proxy = await startClientIpProxy(serviceUrl, `203.0.113.${tests}`)
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
    current = { page: await context.newPage(), proxy }
  })
  afterEach(async () => {
    await context?.close()
    await current?.proxy.close()
  })
  const running = (): TestPage => {
    if (current === undefined) throw new Error('pagePerTest: no test is running')
    return current
  }
  return {
    current: running,
    /** An export's URL as the browser sees the service, through this test's proxy. */
    exportUrl: (id) => `${running().proxy.url}/server-api?id=${id}&tag=gate_1`,
  }
}
