/**
 * The `page` section: how the try-it page answers a person while it works. The page in Chromium
 * with software WebGL (as in CI), against the service started as `npm start` starts it (which
 * builds the page). For each export: the time from opening its shared link to the result, and
 * the worst wait of an input for its answer (a script call and a synthetic click, one after the
 * other: web/try-it/test/e2e/input-probe.ts) while it loads and while it is used (the animation
 * played, the view turned or zoomed, a long string opened). The exports built to freeze the page
 * (web/try-it/test/e2e/hostile-exports.ts, the same ones its tests check for what a person sees)
 * and the largest fixture, each against the smallest fixture, `reading-41-displays`, opened and
 * played in the same rounds.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { launchChromium } from '../../../test/e2e/chromium.ts'
import {
  longString,
  manyAnimations,
  manyDisplays,
  sharedTagAnimation,
  stackedBoxes,
} from '../../../web/try-it/test/e2e/hostile-exports.ts'
import { probeInputs } from '../../../web/try-it/test/e2e/input-probe.ts'
import { startLocalService } from '../../local-service.mjs'
import { row, verdict } from '../lib/rows.mjs'
import { interleave, median, pairedRatio } from '../lib/stats.mjs'

const PUBLISH_TOKEN = 'bench-page-token'
/** A guard against a page that never shows its result, not a target. */
const RESULT_TIMEOUT_MS = 120_000
/** How long the page is used (played, turned) while inputs are probed. */
const USE_MS = 4_000
/**
 * The most an export's worst input wait may be, as a multiple of the smallest fixture's in the
 * same round: about the second the page's tests allowed before, over the 100-130 ms the fixture
 * costs here; a person feels a page that waits longer as stalled.
 */
const INPUT_TARGET = 8
export const BASELINE_CASE = 'reading-41-displays'

/** What is waited for before the result counts as shown. */
const drawn = (page) =>
  page
    .locator('[data-testid="model-preview"][data-first-render-ms]')
    .waitFor({ timeout: RESULT_TIMEOUT_MS })
const tree = (page) => page.locator('#tree .json-tree').waitFor({ timeout: RESULT_TIMEOUT_MS })
async function drawnWithPlayer(page) {
  await drawn(page)
  await page.locator('#animation-clock').waitFor({ timeout: RESULT_TIMEOUT_MS })
}

/** How the page is used once it shows the result. */
async function play(page) {
  await page.getByRole('button', { name: 'Play' }).click()
  await page.waitForTimeout(USE_MS)
  await page.getByRole('button', { name: 'Pause' }).click()
}
async function turn(page) {
  const box = await page.getByTestId('model-preview').boundingBox()
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  for (let step = 1; step <= 10; step++) {
    await page.mouse.move(box.x + box.width / 2 + step * 20, box.y + box.height / 2 + step * 5)
  }
  await page.mouse.up()
  await page.waitForTimeout(1_000)
}
async function zoom(page) {
  const box = await page.getByTestId('model-preview').boundingBox()
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  for (let step = 0; step < 10; step++) await page.mouse.wheel(0, -400)
  await page.waitForTimeout(1_000)
}
async function openLong(page) {
  const long = page.locator('#tree details.long')
  await long.locator('summary').click()
  await long.locator('pre').waitFor({ timeout: RESULT_TIMEOUT_MS })
  await page.waitForTimeout(1_000)
}

/** The cases, the baseline first; `document` builds the export once. */
function pageCases(root) {
  const fixture = (name) => () => readFileSync(join(root, 'fixtures', `${name}.json`), 'utf8')
  return [
    { name: BASELINE_CASE, document: fixture(BASELINE_CASE), reached: drawnWithPlayer, use: play },
    {
      name: 'animated-80-displays, played',
      document: fixture('animated-80-displays'),
      reached: drawnWithPlayer,
      use: play,
    },
    {
      name: '10,000 displays x 10,000 frames, played',
      document: () => sharedTagAnimation(10_000, 10_000),
      reached: drawnWithPlayer,
      use: play,
    },
    {
      name: '5,000 boxes at one spot, turned',
      document: () => stackedBoxes(5_000),
      reached: drawn,
      use: turn,
    },
    {
      name: '300 boxes scaled 900x, zoomed',
      document: () => stackedBoxes(300, 900),
      reached: drawn,
      use: zoom,
    },
    {
      name: '1,000,000 animations, played',
      document: () => manyAnimations(1_000_000),
      reached: drawnWithPlayer,
      use: play,
    },
    {
      name: '100,000 displays, drawn up to the cap',
      document: () => manyDisplays(100_000),
      reached: drawn,
      use: null,
    },
    {
      name: 'a string of 25 MiB, opened',
      document: () => longString(25 * 1024 * 1024 - 100),
      reached: tree,
      use: openLong,
    },
  ]
}

async function publish(url, document) {
  const res = await fetch(`${url}/editor-api/exports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${PUBLISH_TOKEN}`, 'Content-Type': 'application/json' },
    body: document,
  })
  if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${await res.text()}`)
  return (await res.json()).id
}

const worst = (seen) => Math.max(seen.scriptMs, seen.clickMs)

/** Opens one export's link in a fresh context and uses it; its figures in ms. */
async function measure(browser, url, id, c) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
  try {
    const page = await context.newPage()
    const errors = []
    page.on('pageerror', (error) => errors.push(error.message))
    const started = performance.now()
    await page.goto(`${url}/?id=${id}&tag=x`, { waitUntil: 'domcontentloaded' })
    const loading = probeInputs(page)
    await c.reached(page)
    const resultMs = performance.now() - started
    const loadingMs = worst(await loading.stop())
    let usingMs = 0
    if (c.use !== null) {
      const using = probeInputs(page)
      await c.use(page)
      usingMs = worst(await using.stop())
    }
    if (errors.length > 0) throw new Error(`${c.name}: the page failed: ${errors.join('; ')}`)
    return { resultMs, loadingMs, usingMs, worstMs: Math.max(loadingMs, usingMs) }
  } finally {
    await context.close()
  }
}

/** The section's figures: per case, its figures per round. */
export async function pageBench({ root, rounds, log }) {
  const cases = pageCases(root)
  const [service, browser] = await Promise.all([
    startLocalService(
      {
        PUBLISH_TOKEN,
        EXPORT_POLICY: 'off',
        RATE_LIMIT_SHORT: '999999999/60',
        RATE_LIMIT_LONG: '999999999/3600',
      },
      { statePrefix: 'export-service-bench-page-' },
    ),
    launchChromium(),
  ])
  try {
    const documents = new Map(cases.map((c) => [c.name, c.document()]))
    const byName = new Map(cases.map((c) => [c.name, c]))
    // One untimed opening first: the page's assets, Chromium's shader cache and the service warm.
    await measure(browser, service.url, await publish(service.url, documents.get(BASELINE_CASE)), {
      ...byName.get(BASELINE_CASE),
    })
    const figures = await interleave([...byName.keys()], rounds, async (name, round) => {
      // Published again each round: a full run outlasts nothing, but a slow machine might.
      const id = await publish(service.url, documents.get(name))
      const seen = await measure(browser, service.url, id, byName.get(name))
      log(`page round ${round + 1}: ${name}: ${JSON.stringify(roundedMs(seen))}`)
      return seen
    })
    return {
      baseline: BASELINE_CASE,
      cases: Object.fromEntries(
        cases.map((c) => [
          c.name,
          { bytes: documents.get(c.name).length, rounds: figures[c.name] },
        ]),
      ),
    }
  } finally {
    await browser.close()
    await service.stop()
  }
}

function roundedMs(seen) {
  return Object.fromEntries(Object.entries(seen).map(([key, value]) => [key, Math.round(value)]))
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

/** The section's rows: each export's worst input wait against the baseline's, its result time beside. */
export function pageRows(r) {
  if (!r.page) return []
  const base = r.page.cases[r.page.baseline].rounds
  const of = (rounds, key) => rounds.map((x) => x[key])
  const medianOf = (rounds, key) => Math.round(median(of(rounds, key)))
  const cell = (rounds) =>
    `worst ${medianOf(rounds, 'worstMs')} ms (load ${medianOf(rounds, 'loadingMs')}, ` +
    `use ${medianOf(rounds, 'usingMs')}), shown in ${seconds(medianOf(rounds, 'resultMs'))}`
  const baseline = `${r.page.baseline}: ${cell(base)}`
  return Object.entries(r.page.cases)
    .filter(([name]) => name !== r.page.baseline)
    .map(([name, { bytes, rounds }]) => {
      const ratio = pairedRatio(of(rounds, 'worstMs'), of(base, 'worstMs'))
      return row(
        'page',
        `input wait, ${name} (${Math.round(bytes / 1024).toLocaleString('en-US')} KiB)`,
        cell(rounds),
        baseline,
        ratio,
        `<= ${INPUT_TARGET}x`,
        verdict(ratio <= INPUT_TARGET),
      )
    })
}
