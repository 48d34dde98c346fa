/**
 * The `memory` section's workerd half (docs/performance.md): how much the Worker's process grows
 * while it handles the inputs built to make it hold the most memory, each beside a bare Worker doing the least the same
 * request needs, measured the same way in the same run.
 *
 * Each case gets a freshly started workerd (one Miniflare, only the Worker under test and its
 * storage), a warm-up, then its peak RSS (VmHWM in /proc/<pid>/status) is reset to the current
 * RSS (`clear_refs`) and the request runs; the growth is the new peak less that RSS. A fresh
 * process per case, as a peak only grows and a heap grown by one case would hide the next.
 *
 * - (a) one 25 MiB publish of `{"content":{"a":[{},{},...]}}` (8.7 million empty objects) and
 *   (b) one of a single 25 MiB string (both read whole, then refused: `a` is no member of a
 *   display model), and (d) one of a 25 MiB display model (2,000 displays,
 *   frames of `data merge` commands: all of it read by the display-model check), against a
 *   Worker that reads the body and puts it into KV. Target: growth at most the baseline's plus
 *   the body's size.
 * - the display-model check's shapes (safety-shapes.mjs): 800,000 tiny frames, 400,000
 *   `data merge` commands in one frame, a passenger string of a million compounds (refused),
 *   `data merge` values nested to the depth limit repeated to 25 MiB; the same target.
 * - (c) 40 concurrent GETs, from 40 addresses, with 100-character tags, of an export of 65,000
 *   placeholders (1,040,020 bytes stored, 6,500,020 served), against a Worker streaming the
 *   stored value untouched. Target: at most 120 MiB.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { cpuMillis, workerdPids } from '../lib/load.mjs'
import { row, verdict } from '../lib/rows.mjs'
import { printWarningsAndErrors } from '../lib/workerd-setup.mjs'
import { REFUSED_SHAPES, SHAPES } from './safety-shapes.mjs'
import { EDITOR_EXPORTS_PATH, SERVER_API_PATH } from '../../../src/contract/routes.ts'

const MiB = 1024 * 1024
const BODY_BYTES = 25 * MiB
const PUBLISH_TOKEN = 'bench-token'
const HIGH_LIMITS = { RATE_LIMIT_SHORT: '999999999/60', RATE_LIMIT_LONG: '999999999/3600' }
const VARS = { EXPORT_TTL_SECONDS: '600', ID_QUARANTINE_SECONDS: '3600', ...HIGH_LIMITS }
/** (c): requests in flight at once, each from its own address, and the tag they send. */
const CONCURRENT_GETS = 40
const LONG_TAG = 'Z'.repeat(100)
const DENSE_PLACEHOLDERS = 65_000
/** The targets. */
export const READ_TARGET_BYTES = 120 * MiB

/**
 * Runs the section. `root` is the repository, `buildDir` where lib/bundles.mjs put the bundles (the
 * service at `service/index.js`, `baseline-worker.js`); returns the figures for `memoryRows`.
 */
export async function workerdMemory({ root, buildDir, log }) {
  const compatibilityDate = /compatibility_date\s*=\s*"([^"]+)"/.exec(
    readFileSync(join(root, 'wrangler.toml'), 'utf8'),
  )[1]
  const setup = { buildDir, compatibilityDate }
  const cases = {}
  for (const [name, body] of [
    ['emptyObjects', emptyObjectsDocument()],
    ['longString', longStringDocument()],
    ['displayModel', displayModelDocument()],
    ...Object.entries(SHAPES).map(([name, build]) => [name, build()]),
  ]) {
    log(`memory in workerd: a 25 MiB publish (${name}) and a bare KV put`)
    cases[name] = {
      bytes: body.length,
      subject: await onFreshWorkerd(setup, 'service', (url) =>
        expectStatus(
          post(`${url}${EDITOR_EXPORTS_PATH}`, body, publishHeaders()),
          REFUSED_SHAPES.has(name) || UNTYPED.has(name) ? 400 : 201,
        ),
      ),
      baseline: await onFreshWorkerd(setup, 'baseline', (url) =>
        expectStatus(post(`${url}/kv-put`, body, {}), 201),
      ),
    }
  }
  log(`memory in workerd: ${CONCURRENT_GETS} concurrent GETs with 100-character tags`)
  const dense = denseDocument()
  const served = dense.length + DENSE_PLACEHOLDERS * (LONG_TAG.length - 16)
  cases.concurrentGets = {
    bytes: dense.length,
    servedBytes: served,
    subject: await onFreshWorkerd(setup, 'service', (url) => concurrentGets(url, served), {
      seed: dense,
    }),
    baseline: await onFreshWorkerd(setup, 'baseline', (url) => concurrentGets(url, dense.length), {
      seed: dense,
    }),
  }
  return { cases }
}

/** The display-model check's own shapes (safety-shapes.mjs), each a valid model. */
const SAFETY_SHAPE_ROWS = [
  ['tinyFrames', 'publish of 800,000 tiny frames (display-model check)'],
  ['dataMerges', 'publish of 400,000 data merge commands in one frame (display-model check)'],
  ['compounds', 'publish of one passenger string of a million compounds (refused: over 2 MiB)'],
  [
    'deepNesting',
    'publish of data merge values nested to the depth limit, repeated to 25 MiB (display-model check)',
  ],
]

/** Table rows of the section. */
export function memoryRows(r) {
  if (!r.memoryWorkerd) return []
  const rows = []
  const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`
  const { cases } = r.memoryWorkerd
  for (const [name, what] of [
    ['emptyObjects', 'publish of 25 MiB of empty objects (8.7 million)'],
    ['longString', 'publish of a single 25 MiB string'],
    ['displayModel', 'publish of a 25 MiB display model (every command checked)'],
    ...SAFETY_SHAPE_ROWS,
  ]) {
    const c = cases[name]
    const limit = c.baseline.growthBytes + c.bytes
    rows.push(
      row(
        'memory',
        `workerd peak RSS growth, ${what}`,
        mib(c.subject.growthBytes),
        `KV put of the body: ${mib(c.baseline.growthBytes)}`,
        c.subject.growthBytes / c.baseline.growthBytes,
        `<= baseline + body (${mib(limit)})`,
        c.subject.ok && c.baseline.ok ? verdict(c.subject.growthBytes <= limit) : 'FAIL',
      ),
    )
  }
  const g = cases.concurrentGets
  rows.push(
    row(
      'memory',
      `workerd peak RSS growth, ${CONCURRENT_GETS} concurrent GETs, 100-char tags, ${DENSE_PLACEHOLDERS.toLocaleString('en-US')} placeholders (${mib(g.servedBytes)} each)`,
      mib(g.subject.growthBytes),
      `streaming the value untouched: ${mib(g.baseline.growthBytes)}`,
      g.subject.growthBytes / g.baseline.growthBytes,
      `<= ${mib(READ_TARGET_BYTES)}`,
      g.subject.ok && g.baseline.ok ? verdict(g.subject.growthBytes <= READ_TARGET_BYTES) : 'FAIL',
    ),
  )
  return rows
}

/**
 * Starts a workerd with only `worker` (and its KV, Durable Objects), warms it up, resets its
 * peak RSS, runs `work(url)` and returns the growth of the peak. `seed`: an export stored
 * under ID 100000 before the warm-up, with the metadata publishing would give it.
 */
async function onFreshWorkerd(setup, worker, work, { seed } = {}) {
  const mf = new Miniflare(convertV4MiniflareOptions(workerOptions(setup, worker)))
  try {
    await mf.ready
    const pids = workerdPids()
    const url = (await mf.unsafeGetDirectURL(worker)).href.replace(/\/$/, '')
    if (seed) await storeSeed(mf, worker, seed)
    await warmUp(url, worker, seed)
    const resetTo = resetPeak(pids)
    const cpu = cpuMillis(pids)
    const result = await work(url)
    const after = cpuMillis(pids)
    const peak = peakBytes(pids)
    return {
      ...result,
      rssBeforeBytes: resetTo,
      peakBytes: peak,
      growthBytes: peak - resetTo,
      cpuMs: after.user + after.system - cpu.user - cpu.system,
    }
  } finally {
    await mf.dispose()
  }
}

function workerOptions({ buildDir, compatibilityDate }, worker) {
  const common = {
    name: worker,
    modules: true,
    modulesRoot: buildDir,
    compatibilityDate,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    kvNamespaces: { EXPORTS: 'exports' },
  }
  if (worker === 'baseline') {
    return {
      handleStructuredLogs: printWarningsAndErrors,
      workers: [{ ...common, scriptPath: join(buildDir, 'baseline-worker.js') }],
    }
  }
  return {
    handleStructuredLogs: printWarningsAndErrors,
    workers: [
      {
        ...common,
        scriptPath: join(buildDir, 'service/index.js'),
        durableObjects: {
          RATE_LIMITER: { className: 'PrefixRateLimiter', useSQLite: true },
          ID_ALLOCATOR: { className: 'IdAllocator', useSQLite: true },
        },
        bindings: { ...VARS, PUBLISH_TOKEN },
      },
    ],
  }
}

/**
 * The same small requests on both Workers before measuring, so that compiling the code,
 * creating the Durable Objects and opening KV are not counted: a small publish (or put), and
 * for the GET case one request from each of its addresses (the service creates their limiter
 * objects).
 */
async function warmUp(url, worker, seed) {
  const small = new TextEncoder().encode('{"content":{"meta":{"a":"[MODELSERVERTAG]"}}}')
  if (worker === 'service') {
    await expectStatus(post(`${url}${EDITOR_EXPORTS_PATH}`, small, publishHeaders()), 201)
  } else {
    await expectStatus(post(`${url}/kv-put`, small, {}), 201)
  }
  if (!seed) return
  for (let i = 0; i < CONCURRENT_GETS; i++) {
    const response = await fetch(`${url}${SERVER_API_PATH}?id=100000&tag=x`, {
      headers: { 'CF-Connecting-IP': address(i) },
    })
    await response.arrayBuffer()
  }
}

/** Stores `doc` as export 100000 with the metadata publishing records (every placeholder raw). */
async function storeSeed(mf, worker, doc) {
  const kv = await mf.getKVNamespace('EXPORTS', worker)
  const now = Date.now()
  const metadata = {
    v: 1,
    publishedAt: now,
    expiresAt: now + 600_000,
    size: doc.length,
    placeholders: DENSE_PLACEHOLDERS,
    placeholderBytes: DENSE_PLACEHOLDERS * 16,
  }
  await kv.put('export:100000', doc, { metadata, expirationTtl: 600 })
}

/** (c): the GETs at once, each body read to its end and its length checked. */
async function concurrentGets(url, expectedBytes) {
  const lengths = await Promise.all(
    Array.from({ length: CONCURRENT_GETS }, async (_, i) => {
      const response = await fetch(`${url}${SERVER_API_PATH}?id=100000&tag=${LONG_TAG}`, {
        headers: { 'CF-Connecting-IP': address(i) },
      })
      if (response.status !== 200) throw new Error(`GET answered ${response.status}`)
      return (await response.arrayBuffer()).byteLength
    }),
  )
  return { ok: lengths.every((n) => n === expectedBytes), lengths: [...new Set(lengths)] }
}

function address(i) {
  return `10.12.0.${i + 1}`
}

/** Sets each process's peak RSS to its current RSS; returns the sum of those. */
function resetPeak(pids) {
  let rss = 0
  for (const pid of pids) {
    // 5: set the peak resident set size to the current one (Linux 4.0 and later).
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    rss += statusKiB(pid, 'VmRSS') * 1024
  }
  return rss
}

function peakBytes(pids) {
  return pids.reduce((sum, pid) => sum + statusKiB(pid, 'VmHWM') * 1024, 0)
}

function statusKiB(pid, field) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1])
}

/** The cases the display-model check refuses once read: JSON of no display model's shape. */
const UNTYPED = new Set(['emptyObjects', 'longString'])

/** (a): `{"content":{"a":[{},{},...]}}` of exactly 25 MiB. */
function emptyObjectsDocument() {
  const head = '{"content":{"a":['
  const tail = ']}}'
  const items = Math.floor((BODY_BYTES - head.length - tail.length + 1) / 3)
  const doc = head + '{},'.repeat(items - 1) + '{}' + tail
  return new TextEncoder().encode(doc + ' '.repeat(BODY_BYTES - doc.length))
}

/** (b): `{"content":{"a":"xxx..."}}` of exactly 25 MiB. */
function longStringDocument() {
  const shell = '{"content":{"a":""}}'
  const text = 'x'.repeat(BODY_BYTES - shell.length)
  return new TextEncoder().encode(`{"content":{"a":"${text}"}}`)
}

/**
 * (d): a display model of exactly 25 MiB: 2,000 item displays in one passenger string, then
 * frames of 100 `data merge` commands each (a tenth written with spaces, so that the full
 * grammar runs too), padded with spaces. Publishing accepts it, having checked every string.
 */
function displayModelDocument() {
  const displays = 2000
  const tag = (i) => `[MODELSERVERTAG]_${i}`
  const matrix = (i) =>
    `[${Array.from({ length: 16 }, (_, k) => `${((i * 16 + k) % 997) / 1000}f`)}]`
  const passengers = Array.from(
    { length: displays },
    (_, i) =>
      `{id:"minecraft:item_display",item:{id:"minecraft:stone",Count:1},item_display:"none",transformation:${matrix(i)},Tags:["${tag(i)}"]}`,
  ).join(',')
  const command = (n) => {
    const selector = `@e[type=item_display,tag=${tag(n % displays)},distance=..1,limit=1,sort=nearest]`
    const compound = `{transformation:${matrix(n)},interpolation_duration:2,start_interpolation:0}`
    return `data merge entity ${selector} ${n % 10 === 0 ? compound.replaceAll(',', ', ') : compound}`
  }
  const head = `{"content":{"passengers":[${JSON.stringify(passengers)}],"datapack":{"anim_keyframes":{"default":{`
  const tail = '}}}}}'
  const frames = []
  let size = head.length + tail.length
  for (let frame = 0, n = 0; ; frame++) {
    const commands = Array.from({ length: 100 }, () => JSON.stringify(command(n++)))
    const piece = `${frame === 0 ? '' : ','}"${frame}":[${commands.join(',')}]`
    if (size + piece.length > BODY_BYTES) break
    frames.push(piece)
    size += piece.length
  }
  const doc = head + frames.join('') + tail
  return new TextEncoder().encode(doc + ' '.repeat(BODY_BYTES - doc.length))
}

/** (c): `{"content":{"a":"` + the placeholder 65,000 times + `"}}`. */
function denseDocument() {
  return new TextEncoder().encode(
    `{"content":{"a":"${'[MODELSERVERTAG]'.repeat(DENSE_PLACEHOLDERS)}"}}`,
  )
}

function publishHeaders() {
  return { Authorization: `Bearer ${PUBLISH_TOKEN}`, 'Content-Type': 'application/json' }
}

function post(url, body, headers) {
  return fetch(url, { method: 'POST', body, headers })
}

async function expectStatus(pending, status) {
  const response = await pending
  const text = await response.text()
  if (response.status !== status) throw new Error(`${response.url}: ${response.status} ${text}`)
  return { ok: true }
}
