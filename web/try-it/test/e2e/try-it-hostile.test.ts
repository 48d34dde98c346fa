/**
 * The try-it page against exports built to freeze it (hostile-exports.ts), published through
 * the service and opened by a shared link, the way a reader would meet them. Each must show what
 * a person expects (the model, its counts, the note of what was left out, the picker, the tree)
 * and keep answering inputs (a script call, a synthetic click: input-probe.ts) while the model
 * loads and while its animation plays. Software WebGL, as in CI. The time limits here only guard
 * against a page that hangs: how long inputs wait, against the smallest fixture in the same run,
 * is the bench's `page` section (`npm run bench -- --only page`, docs/performance.md).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../../test/e2e/chromium'
import { fixtureExport, publishExport } from '../../../../test/e2e/editor-publish'
import { startLocalService, type LocalService } from '../../../../test/e2e/local-service'
import {
  farDisplay,
  longArray,
  longKeyProblems,
  longString,
  manyAnimations,
  manyDisplays,
  manyKeys,
  sharedTagAnimation,
  stackedBoxes,
  wideTree,
} from './hostile-exports'
import { probeInputs, type InputRoundTrips } from './input-probe'
import { turnTheView } from './view-gestures'

/** A page whose input waits this long has hung: a guard, not a speed target. */
const INPUT_HANG_MS = 20_000
/** A page that has not shown its result by then has hung. */
const RESULT_TIMEOUT_MS = 60_000
/** How long an animation is played while inputs are probed. */
const PLAY_MS = 4_000

let service: LocalService
let browser: Browser

beforeAll(async () => {
  // EXPORT_POLICY=off: the page stays responsive for anything a service can serve, display
  // models or not (some shapes here are not display models: an unbounded key, no tags).
  ;[service, browser] = await Promise.all([
    startLocalService({ EXPORT_POLICY: 'off' }),
    launchChromium(),
  ])
})

// Each export's page is closed after its test: a page left open keeps its worker, its model and
// its drawing, which the next export would share the machine with.
let opened: BrowserContext | undefined
afterEach(async () => {
  await opened?.close()
  opened = undefined
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

/**
 * Publishes `document`, opens its link and waits for `reached` while probing inputs, which the
 * page must keep answering.
 */
async function open(document: string, reached: (page: Page) => Promise<unknown>): Promise<Page> {
  const { id } = await publishExport(service, document)
  const context = (opened = await browser.newContext({ viewport: { width: 1100, height: 900 } }))
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(`${service.url}/?id=${id}&tag=x`, { waitUntil: 'domcontentloaded' })
  const probe = probeInputs(page)
  await reached(page).catch(async (error: unknown) => {
    // What the page said instead, so that a failure shows why.
    const said = await page.locator('#status, #model').allInnerTexts()
    throw new Error(`${String(error)}\nThe page says: ${JSON.stringify(said)}`)
  })
  expect(problems).toEqual([])
  expectAnswering(await probe.stop())
  return page
}

/** Plays the animation for PLAY_MS while probing inputs, then pauses it with a click. */
async function play(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Play' }).click()
  const probe = probeInputs(page)
  await page.waitForTimeout(PLAY_MS)
  expectAnswering(await probe.stop())
  // Pausing is an input too: a click where the button is.
  const pause = (await page.getByRole('button', { name: 'Pause' }).boundingBox())!
  await page.mouse.click(pause.x + pause.width / 2, pause.y + pause.height / 2)
  await expect.poll(() => page.getByRole('button', { name: 'Play' }).count()).toBe(1)
}

/** The page answered inputs of both kinds, none after a hang. */
function expectAnswering(seen: InputRoundTrips): void {
  expect(seen.scripts).toBeGreaterThan(0)
  expect(seen.clicks).toBeGreaterThan(0)
  expect(seen.scriptMs).toBeLessThan(INPUT_HANG_MS)
  expect(seen.clickMs).toBeLessThan(INPUT_HANG_MS)
}

function displayCount(page: Page) {
  return page.getByTestId('display-count').waitFor({ timeout: RESULT_TIMEOUT_MS })
}

function drawn(page: Page) {
  return page
    .locator('[data-testid="model-preview"][data-first-render-ms]')
    .waitFor({ timeout: RESULT_TIMEOUT_MS })
}

function tree(page: Page) {
  return page.locator('#tree .json-tree').waitFor({ timeout: RESULT_TIMEOUT_MS })
}

async function drawnWithPlayer(page: Page) {
  await drawn(page)
  await page.locator('#animation-clock').waitFor({ timeout: RESULT_TIMEOUT_MS })
}

describe('the try-it page with a hostile export', () => {
  it('plays a 2.5 MB animation of 10,000 frames moving 10,000 displays that share a tag', async () => {
    const page = await open(sharedTagAnimation(10_000, 10_000), drawnWithPlayer)
    expect(await page.getByTestId('display-count').textContent()).toBe('10000 displays')
    // Back from the first frame to the last: one step must not play every frame before it.
    await page.getByRole('button', { name: 'Previous frame' }).click()
    await page.getByRole('button', { name: 'Previous frame' }).click()
    await expect
      .poll(() => page.locator('#animation-clock').textContent())
      .toBe('tick 9999 of 10000 · frame 9999')
    await play(page)
    expect(await page.locator('#animation-clock').textContent()).toMatch(/^tick \d{1,3} /)
  })

  it('draws 5,000 displays stacked at one spot, a 165 KB export', async () => {
    const page = await open(stackedBoxes(5_000), drawn)
    expect(await page.getByTestId('display-count').textContent()).toBe('5000 displays')
    // They cover the same pixels thousands of times over: the view draws some, and says so.
    expect(await page.getByTestId('fill-note').textContent()).toMatch(
      /^This view draws \d[\d,]* of 5,000 boxes/,
    )
    // Turning the view (a drag across the canvas) is answered as quickly.
    const probe = probeInputs(page)
    await turnTheView(page)
    expectAnswering(await probe.stop())
  })

  it('draws 300 boxes scaled 900 times at one spot, and zooms into them', async () => {
    const page = await open(stackedBoxes(300, 900), drawn)
    expect(await page.getByTestId('display-count').textContent()).toBe('300 displays')
    const probe = probeInputs(page)
    const box = (await page.getByTestId('model-preview').boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    for (let step = 0; step < 10; step++) await page.mouse.wheel(0, -400)
    await page.waitForTimeout(1_000)
    expectAnswering(await probe.stop())
  })

  it('offers 1,000,000 animations (18.9 MB) through a search, not a million options', async () => {
    const page = await open(manyAnimations(1_000_000), drawnWithPlayer)
    expect(await page.locator('#model option').count()).toBeLessThan(200)
    const search = page.getByLabel('Find an animation')
    await search.fill('a999999', { timeout: INPUT_HANG_MS })
    await expect
      .poll(() => page.locator('#animation option').allTextContents())
      .toEqual(['a999999 (1 frame)'])
    await play(page)
  })

  it('cuts every problem message of a 300 KB export to a bounded length', async () => {
    const page = await open(longKeyProblems(150_000, 3_500), drawnWithPlayer)
    const problems = page.locator('.model-problems')
    await problems.locator('summary').click()
    const text = await problems.innerText()
    expect(text).toContain('3500 parts could not be read or drawn')
    expect(text.length).toBeLessThan(3_000)
    const heap = await page.evaluate(
      () =>
        (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize,
    )
    expect(heap).toBeLessThan(200 * 1024 * 1024)
  })

  it.each([
    ['an array of 500,000 elements', () => longArray(500_000), 'numbers'],
    ['an object of 300,000 keys', () => manyKeys(300_000), 'keys'],
  ])('shows %s as a tree built on demand', async (_, make, key) => {
    const page = await open(make(), tree)
    expect(await page.getByTestId('model-message').textContent()).toContain('no passengers')
    // The DOM holds a page of the children, not all of them.
    expect(await page.locator('#tree li').count()).toBeLessThan(1_000)
    const branch = page.locator('#tree details').filter({
      has: page.locator(':scope > summary .key', { hasText: new RegExp(`^${key}$`) }),
    })
    await branch.getByRole('button', { name: /^Show \d+ more/ }).click()
    // The next page comes from the worker that holds the content.
    await expect.poll(() => branch.locator(':scope > ul > li').count()).toBe(400)
  })

  it('shows a string of 25 MiB, the most the service accepts, by its start', async () => {
    const chars = 25 * 1024 * 1024 - 100
    const page = await open(longString(chars), tree)
    const long = page.locator('#tree details.long')
    expect(await long.locator('.meta').textContent()).toBe(
      `${chars.toLocaleString('en')} characters`,
    )
    // Opened, it shows the first 100,000 characters, not 25 million.
    const probe = probeInputs(page)
    await long.locator('summary').click()
    await expect.poll(() => long.locator('pre').textContent()).toMatch(/^"x{100000}"…$/)
    expectAnswering(await probe.stop())
  })

  it('opens no more of a wide tree at first than a few thousand nodes', async () => {
    const page = await open(wideTree(1_000, 1_000), tree)
    // The content shows its first 200 arrays, of which the first few start open.
    expect(await page.locator('#tree li').count()).toBeLessThan(2_000)
    expect(await page.locator('#tree details[open]').count()).toBeGreaterThan(1)
  })

  it('draws 100,000 displays up to its cap and says how many it drew', async () => {
    const page = await open(manyDisplays(100_000), async (page) => {
      // 16 MB of SNBT take a while to read: the page says so, and its tree answers meanwhile.
      await page.getByTestId('model-reading').waitFor({ timeout: RESULT_TIMEOUT_MS })
      const content = page.locator('#tree .json-tree > details')
      await content.locator(':scope > summary').click()
      expect(await content.getAttribute('open')).toBeNull()
      await drawn(page)
    })
    expect(await page.getByTestId('model-reading').count()).toBe(0)
    expect(await page.getByTestId('display-count').textContent()).toBe('100000 displays')
    expect(await page.getByTestId('drawn-count').textContent()).toMatch(
      /^Drawn \d[\d,]* of 100,000 displays/,
    )
  })

  it.each(['1e300d', '1e308d'])(
    'draws the gold block beside a stone moved %s away, and lists the stone as a problem',
    async (distance) => {
      const page = await open(farDisplay(distance), drawn)
      await displayCount(page)
      expect(await page.getByTestId('display-count').textContent()).toBe('2 displays')
      const problems = page.locator('.model-problems')
      await problems.locator('summary').click()
      expect(await problems.innerText()).toMatch(/Display 1 \(far\).*left out/)
      const colours = await page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="model-preview"]')!
        const copy = document.createElement('canvas')
        copy.width = canvas.width
        copy.height = canvas.height
        const context = copy.getContext('2d')!
        context.drawImage(canvas, 0, 0)
        const pixels = context.getImageData(0, 0, copy.width, copy.height).data
        let gold = 0
        for (let i = 0; i < pixels.length; i += 4) {
          // Gold faces: strongly red and green, little blue.
          if (pixels[i]! > 150 && pixels[i + 1]! > 110 && pixels[i + 2]! < 90) gold++
        }
        return { gold, all: pixels.length / 4 }
      })
      // The block fills a good part of the picture, not a speck.
      expect(colours.gold / colours.all).toBeGreaterThan(0.02)
    },
  )
})

describe('the largest real fixture beside them', () => {
  it('draws and plays animated-80-displays', async () => {
    const page = await open(fixtureExport('animated-80-displays'), drawnWithPlayer)
    expect(await page.getByTestId('display-count').textContent()).toBe('80 displays')
    await play(page)
  })
})
