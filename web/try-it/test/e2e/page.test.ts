/**
 * The try-it page in a real browser (Debian's Chromium through playwright-core), driven like a
 * person would, its model preview drawn with software WebGL (SwiftShader), against the service
 * started as `npm start` starts it (which builds the page). The service runs with a short limit
 * of 5 per 60 s so that a 429 is cheap to reach; each test has its own client address.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../../../../test/e2e/chromium'
import type { ClientIpProxy } from '../../../../test/e2e/client-ip-proxy'
import { pagePerTest } from '../../../../test/e2e/page-per-test'
import { fixtureExport, publishExport } from '../../../../test/e2e/editor-publish'
import { startLocalService, type LocalService } from '../../../../test/e2e/local-service'

const LIMIT = 5
const SCREENSHOTS = new URL('../../../../test-output/', import.meta.url)

let service: LocalService
let browser: Browser
let exportId: string
let page: Page
let proxy: ClientIpProxy

beforeAll(async () => {
  ;[service, browser] = await Promise.all([
    // EXPORT_POLICY=off: the page must also show what such a service serves (unreadable SNBT).
    startLocalService({ RATE_LIMIT_SHORT: `${LIMIT}/60`, EXPORT_POLICY: 'off' }),
    launchChromium(),
  ])
  exportId = (await publishExport(service, fixtureExport('animated-80-displays'))).id
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

const perTest = pagePerTest(() => ({ serviceUrl: service.url, browser }))
beforeEach(() => {
  ;({ page, proxy } = perTest.current())
})

/** The export's URL as the browser sees the service, through this test's proxy. */
const exportUrl = (id = exportId): string => perTest.exportUrl(id)

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
    // The address now names the lookup, so it can be shared.
    expect(new URL(page.url()).search).toBe(`?id=${exportId}&tag=gate_1`)
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

  it('shows an error with its status, code and message, and still keeps the lookup in the address', async () => {
    await page.goto(`${proxy.url}/?id=999999&tag=x`)
    await expect
      .poll(() => page.locator('#status').textContent())
      .toMatch(/^HTTP 404 not_found: \S.*/)
    expect(new URL(page.url()).search).toBe('?id=999999&tag=x')
    expect(await page.locator('#rate-limit').innerText()).toContain(
      `short: ${LIMIT - 1} of ${LIMIT}`,
    )
    // Chromium logs the page's own 404 as a failed resource load; nothing else.
    expect(problems.filter((p) => !p.includes('404'))).toEqual([])
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

/** What the preview's canvas shows: how many colours, and a fingerprint of its pixels. */
function picture(page: Page): Promise<{ colours: number; fingerprint: string }> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="model-preview"]')!
    const copy = document.createElement('canvas')
    copy.width = canvas.width
    copy.height = canvas.height
    const context = copy.getContext('2d')!
    context.drawImage(canvas, 0, 0)
    const pixels = context.getImageData(0, 0, copy.width, copy.height).data
    const colours = new Set<number>()
    let hash = 0x811c9dc5
    for (let i = 0; i < pixels.length; i += 4) {
      const rgb = (pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!
      colours.add(rgb)
      hash = Math.imul(hash ^ rgb, 0x01000193)
    }
    return { colours: colours.size, fingerprint: `${copy.width}x${copy.height}:${hash >>> 0}` }
  })
}

describe('the model preview', () => {
  const firstRenders: Record<string, { pageMs: number; navigationMs: number; bytes: number }> = {}
  let problems: string[]

  beforeEach(() => {
    problems = []
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  })

  afterAll(() => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    writeFileSync(
      new URL('model-first-render.json', SCREENSHOTS),
      JSON.stringify(firstRenders, null, 2) + '\n',
    )
    console.log('model preview, first render:', firstRenders)
  })

  it.each([
    ['stone-gate-136-displays', 136],
    ['animated-80-displays', 80],
    ['reading-41-displays', 41],
  ])(
    'draws %s from a shared link, counts its %i displays and plays its animation',
    async (name, count) => {
      const document = fixtureExport(name)
      const { id } = await publishExport(service, document)
      const started = Date.now()
      await page.goto(`${proxy.url}/?id=${id}&tag=x`)
      const canvas = page.locator('[data-testid="model-preview"]')
      await canvas.and(page.locator('[data-first-render-ms]')).waitFor()
      const navigationMs = Date.now() - started
      firstRenders[name] = {
        pageMs: Number(await canvas.getAttribute('data-first-render-ms')),
        navigationMs,
        bytes: document.length,
      }
      // The link filled the form and fetched.
      expect(await page.getByLabel('Publication ID').inputValue()).toBe(id)
      expect(await page.getByLabel('Tag').inputValue()).toBe('x')
      expect(await page.getByTestId('display-count').textContent()).toBe(`${count} displays`)

      // It drew a model, not a blank canvas: many colours (faces, edges, shading).
      const still = await picture(page)
      expect(still.colours).toBeGreaterThan(20)
      mkdirSync(SCREENSHOTS, { recursive: true })
      await page
        .locator('#model')
        .screenshot({ path: new URL(`model-${name}-preview.png`, SCREENSHOTS).pathname })

      // Left alone, the picture stays as it is...
      await page.waitForTimeout(300)
      expect((await picture(page)).fingerprint).toBe(still.fingerprint)

      // ...and playing the animation changes it from one frame to a later one.
      await page.getByRole('button', { name: 'Play' }).click()
      await expect
        .poll(async () => (await picture(page)).fingerprint, { timeout: 15_000, interval: 250 })
        .not.toBe(still.fingerprint)
      await expect
        .poll(() => page.locator('#animation-clock').textContent())
        .not.toMatch(/^tick 0 /)
      await page.getByRole('button', { name: 'Pause' }).click()

      // Stepping moves one frame (stepTicks = 2) at a time.
      await page.getByRole('button', { name: 'Next frame' }).click()
      const clock = await page.locator('#animation-clock').textContent()
      const tick = Number(/^tick (\d+)/.exec(clock ?? '')?.[1])
      expect(tick % 2).toBe(0)

      // Fetching again replaces the preview with a new one, not a second one.
      await page.getByRole('button', { name: 'Fetch export' }).click()
      await expect.poll(() => page.locator('#animation-clock').textContent()).toMatch(/^tick 0 /)
      await canvas.and(page.locator('[data-first-render-ms]')).waitFor()
      expect(await page.locator('canvas').count()).toBe(1)

      // The JSON tree is still there, below.
      expect(await page.locator('#tree .json-tree').count()).toBe(1)
      mkdirSync(SCREENSHOTS, { recursive: true })
      await page.screenshot({ path: new URL(`model-${name}.png`, SCREENSHOTS).pathname })
      expect(problems).toEqual([])
    },
  )

  it.each([
    ['has no passengers', { project_id: 'p-1', datapack: {} }, 'has no passengers'],
    [
      'holds unreadable SNBT',
      { project_id: 'p-1', passengers: ['{id:"minecraft:block_display",transformation:[1f,'] },
      'is not readable SNBT',
    ],
  ])('says so in words when an export %s, and still shows the tree', async (_, content, words) => {
    const { id } = await publishExport(service, JSON.stringify({ content }))
    await page.goto(`${proxy.url}/?id=${id}`)
    await page.locator('#tree .json-tree').waitFor()
    expect(await page.getByTestId('model-message').textContent()).toContain(words)
    expect(await page.locator('canvas').count()).toBe(0)
    expect(problems).toEqual([])
  })

  it("refuses in words, and sends nothing, when the browser cannot run the page's worker", async () => {
    await page.addInitScript(() => {
      // No Web Worker: the export would have to be parsed and read on the page's thread.
      delete (window as { Worker?: unknown }).Worker
    })
    const { id } = await publishExport(service, fixtureExport('reading-41-displays'))
    const forwarded = proxy.forwarded.length
    await page.goto(`${proxy.url}/?id=${id}&tag=x`)
    await expect
      .poll(() => page.locator('#status').textContent())
      .toContain('cannot fetch and read the export in the background (no Web Worker)')
    expect(await page.locator('#status').getAttribute('class')).toBe('error')
    expect(await page.locator('canvas').count()).toBe(0)
    expect(await page.locator('#tree .json-tree').count()).toBe(0)
    const sent = proxy.forwarded.slice(forwarded).filter((r) => r.path.startsWith('/server-api'))
    expect(sent).toEqual([])
    expect(problems).toEqual([])
  })

  it('says so in words when the browser has no WebGL, and still shows the tree', async () => {
    await page.addInitScript(() => {
      const getContext = HTMLCanvasElement.prototype.getContext
      HTMLCanvasElement.prototype.getContext = function (
        this: HTMLCanvasElement,
        type: string,
        ...rest: unknown[]
      ) {
        if (type.startsWith('webgl')) return null
        return (getContext as (...args: unknown[]) => RenderingContext | null).call(
          this,
          type,
          ...rest,
        )
      } as typeof getContext
    })
    const { id } = await publishExport(service, fixtureExport('reading-41-displays'))
    await page.goto(`${proxy.url}/?id=${id}&tag=x`)
    await page.locator('#tree .json-tree').waitFor()
    expect(await page.getByTestId('model-message').textContent()).toContain(
      'WebGL is not available',
    )
    // What was read is still reported.
    expect(await page.getByTestId('display-count').textContent()).toBe('41 displays')
    expect(await page.locator('canvas').count()).toBe(0)
    mkdirSync(SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: new URL('model-no-webgl.png', SCREENSHOTS).pathname })
  })
})
