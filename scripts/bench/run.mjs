#!/usr/bin/env node
/**
 * `npm run bench`: the walker, the request path, the limiter and publishing, each figure beside a
 * baseline measured in the same run, as a ratio (docs/performance.md says how to read them).
 * Prints one table and writes every figure to bench-results/latest.json; `-- --save` also
 * copies that file to docs/bench-latest.json, `-- --quick` runs a short smoke version.
 *
 * The Worker runs as the built bundle (`wrangler deploy --dry-run`) in plain Miniflare, each
 * bench Worker on its own loopback socket; load comes from this process on the same 2 cores.
 */
import { build } from 'esbuild'
import { execFileSync, execSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { graceCopyBench, graceCopyWorkers } from './grace-copy.mjs'
import { cpuMillis, runLoad as runLoadOnly, workerdPids } from './load.mjs'
import { workerdMemory } from './memory-workerd.mjs'
import { interleave, measureThroughput, median, pairedRatio } from './stats.mjs'
import { renderTable, tableRows } from './report.mjs'
import { sustainedWrites, writeCountWorker } from './write-behind.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const FIXTURES = join(ROOT, 'fixtures')
const OUT_DIR = join(ROOT, 'bench-results')
const BUILD = join(OUT_DIR, 'build')
const args = process.argv.slice(2)
const QUICK = args.includes('--quick')
const SAVE = args.includes('--save')
/** `--only a,b`: run only these sections (walker, memory, request, limiter, publish, grace); others are left out of the table. */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null
const runs = (section) => ONLY === null || ONLY.includes(section)
if (ONLY !== null && SAVE) throw new Error('--save keeps whole runs only: drop --only')
/** `--entry FILE`: bench a candidate Worker entry (bundled with esbuild) instead of the tree's. */
const ENTRY = args.includes('--entry') ? args[args.indexOf('--entry') + 1] : null

const SYNTHETIC_BYTES = 20_000_000
const PUBLISH_TOKEN = 'bench-token'
/** Limits no benchmark reaches, so the limiter admits (and counts) every request. */
const HIGH_LIMITS = { RATE_LIMIT_SHORT: '999999999/60', RATE_LIMIT_LONG: '999999999/3600' }
const CONFIG = {
  walker: {
    rounds: QUICK ? 2 : 5,
    nodeBatchMs: QUICK ? 50 : 150,
    workerdBatchMs: QUICK ? 60 : 200,
  },
  memory: { sizes: [1_000_000, 20_000_000], synthetic: 'dense' },
  http: {
    connections: 8,
    warmupSeconds: QUICK ? 0.5 : 1,
    durationSeconds: QUICK ? 1 : 3,
    rounds: QUICK ? 1 : 3,
    clientIps: 1024,
    streamedBytes: 4_000_000,
  },
  limiter: { calls: QUICK ? 100 : 400, rounds: QUICK ? 2 : 5, sustainedSeconds: QUICK ? 20 : 60 },
  publish: {
    fixture: 'animated-80-displays',
    amount: QUICK ? 20 : 100,
    connections: 4,
    rounds: QUICK ? 1 : 3,
  },
  alloc: { space: 2000, fill: 1800, batch: 100, rounds: QUICK ? 4 : 16 },
}
const FIXTURE_NAMES = ['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays']
const WALKER_INPUTS = [
  ...FIXTURE_NAMES.map((name) => ({ name, file: join(FIXTURES, `${name}.json`) })),
  { name: 'synthetic-20MB-dense', synthetic: 'dense', bytes: SYNTHETIC_BYTES },
  { name: 'synthetic-20MB-sparse', synthetic: 'sparse', bytes: SYNTHETIC_BYTES },
]
/** Tags of the GET benchmark: lengths 1 to 100, shorter and longer than the placeholder. */
const TAGS = ['bde', 'model', 'x', 'my_model-7', 'Castle_Gate_2', 'a'.repeat(16), 'tag'.repeat(8)]
TAGS.push('Z'.repeat(100), 'shop-npc_42', 'dragon')

const log = (...parts) => console.error('[bench]', ...parts)
const results = {
  startedAt: new Date().toISOString(),
  machine: machine(),
  config: CONFIG,
  entry: ENTRY ?? 'wrangler.toml main (npm run build)',
}
const started = performance.now()

await buildBundles()
const cases = await import(pathToFileURL(join(BUILD, 'walker-cases.mjs')).href)

if (runs('walker')) {
  log('walker in Node')
  results.walkerNode = nodeJson('walker-node.mjs', [], {
    casesModule: pathToFileURL(join(BUILD, 'walker-cases.mjs')).href,
    inputs: WALKER_INPUTS,
    rounds: CONFIG.walker.rounds,
    minBatchMs: CONFIG.walker.nodeBatchMs,
  })
}

if (runs('memory')) {
  log('memory in Node')
  results.memory = []
  for (const mode of ['splicer', 'walker', 'replaceAll']) {
    for (const bytes of CONFIG.memory.sizes) {
      results.memory.push(
        nodeJson('memory-node.mjs', ['--expose-gc'], {
          casesModule: pathToFileURL(join(BUILD, 'walker-cases.mjs')).href,
          mode,
          synthetic: CONFIG.memory.synthetic,
          bytes,
        }),
      )
    }
  }
  results.memoryWorkerd = await workerdMemory({ root: ROOT, buildDir: BUILD, quick: QUICK, log })
}

/** workerd's processes, whose CPU time each load run records. */
let serverPids = []
const mf = new Miniflare(convertV4MiniflareOptions(miniflareOptions()))
try {
  await mf.ready
  serverPids = workerdPids()
  const url = async (name) => (await mf.unsafeGetDirectURL(name)).href.replace(/\/$/, '')
  const urls = Object.fromEntries(
    await Promise.all(
      [
        'service',
        'limited',
        'no-limiter',
        'before',
        'baseline',
        'walker',
        'probe',
        'probe-2',
        'writes',
      ].map(async (name) => [name, await url(name)]),
    ),
  )
  if (runs('walker')) {
    log('walker in workerd')
    results.walkerWorkerd = await walkerInWorkerd(urls.walker)
  }
  if (runs('request')) {
    log('request path')
    results.http = await requestPath(urls)
  }
  if (runs('limiter')) {
    log('limiter')
    results.limiter = await limiterCost(urls.probe)
    results.writes = await sustainedWrites(urls.writes, {
      seconds: CONFIG.limiter.sustainedSeconds,
      flushSeconds: 9,
      log,
    })
  }
  if (runs('publish')) {
    log('publishing')
    results.publish = await publishing(urls)
    log('ID allocation')
    results.alloc = await allocation(urls)
  }
  if (runs('grace')) {
    log('grace copy')
    const fixture = readFileSync(join(FIXTURES, `${CONFIG.publish.fixture}.json`))
    const large = cases.syntheticExport('sparse', CONFIG.http.streamedBytes)
    const config = { ...CONFIG, publish: { ...CONFIG.publish, token: PUBLISH_TOKEN } }
    const bench = { mf, urls, runLoad, interleave, median, pairedRatio, publishOnce, tags: TAGS }
    results.grace = await graceCopyBench({ ...bench, fixture, large, config })
  }
} finally {
  await mf.dispose()
}

results.seconds = (performance.now() - started) / 1000
results.machine.loadavgAfter = os.loadavg()
results.rows = tableRows(results, CONFIG)
mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(join(OUT_DIR, 'latest.json'), JSON.stringify(results, null, 2) + '\n')
if (SAVE) await saveCopy(results)
console.log(renderTable(results))
const missed = results.rows.filter((row) => row.met === 'no' || row.met === 'FAIL')
log(`done in ${results.seconds.toFixed(0)} s; ${missed.length} target(s) missed or failed`)
log(`figures: ${join(OUT_DIR, 'latest.json')}${SAVE ? ' and docs/bench-latest.json' : ''}`)

/** A load run, plus the CPU time workerd and this process spent on it. */
async function runLoad(options) {
  const server = cpuMillis(serverPids)
  const client = process.cpuUsage()
  const run = await runLoadOnly(options)
  const { user, system } = process.cpuUsage(client)
  const after = cpuMillis(serverPids)
  run.serverUserMs = after.user - server.user
  run.serverSystemMs = after.system - server.system
  run.serverCpuMs = run.serverUserMs + run.serverSystemMs
  run.clientCpuMs = (user + system) / 1000
  run.serverCpuMicrosPerRequest = (run.serverCpuMs * 1000) / run.requests
  return run
}

/** Bundles: the Worker itself through wrangler, the bench Workers and the walker cases through esbuild. */
async function buildBundles() {
  mkdirSync(BUILD, { recursive: true })
  const workerOptions = {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    external: ['cloudflare:*'],
    logLevel: 'warning',
  }
  if (ENTRY) {
    log(`building the candidate Worker ${ENTRY} (esbuild)`)
    await build({
      ...workerOptions,
      entryPoints: [ENTRY],
      outfile: join(BUILD, 'service/index.js'),
    })
  } else {
    log('building the Worker bundle (wrangler deploy --dry-run)')
    buildWithWrangler()
  }
  for (const name of [
    'walker-worker',
    'baseline-worker',
    'no-limiter-worker',
    'probe-worker',
    'write-through-worker',
    'write-count-worker',
  ]) {
    await build({
      ...workerOptions,
      entryPoints: [join(ROOT, `scripts/bench/${name}.ts`)],
      outfile: join(BUILD, `${name}.js`),
    })
  }
  await build({
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
    entryPoints: [join(ROOT, 'scripts/bench/walker-cases.ts')],
    outfile: join(BUILD, 'walker-cases.mjs'),
  })
}

/** The Worker exactly as `npm run build` bundles it. */
function buildWithWrangler() {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
      'deploy',
      '--dry-run',
      // The top-level environment: production's bundle, not staging's.
      '--env=',
      '--outdir',
      join(BUILD, 'service'),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        WRANGLER_LOG_PATH: join(OUT_DIR, 'wrangler-logs'),
      },
    },
  )
}

/** Runs a bench script in a fresh Node process and parses the JSON it prints. */
function nodeJson(script, nodeFlags, config) {
  const out = execFileSync(
    process.execPath,
    [...nodeFlags, join(ROOT, 'scripts/bench', script), JSON.stringify(config)],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return JSON.parse(out.toString())
}

/** One workerd process: the service twice (high limits, and 1 request per day for 429s), the bench Workers. */
function miniflareOptions() {
  const compatibilityDate = /compatibility_date\s*=\s*"([^"]+)"/.exec(
    readFileSync(join(ROOT, 'wrangler.toml'), 'utf8'),
  )[1]
  const vars = { EXPORT_TTL_SECONDS: '600', ID_QUARANTINE_SECONDS: '3600' }
  const worker = (name, script, rest) => ({
    name,
    modules: true,
    modulesRoot: BUILD,
    scriptPath: join(BUILD, script),
    compatibilityDate,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    ...rest,
  })
  const ownObjects = {
    RATE_LIMITER: { className: 'RateLimiter', useSQLite: true },
    ID_ALLOCATOR: { className: 'IdAllocator', useSQLite: true },
  }
  const exports = { EXPORTS: 'exports' }
  return {
    // The service logs a line per request (src/observability): its cost stays in the figures,
    // its text stays out of the report. Warnings and errors are still printed.
    handleStructuredLogs: ({ level, message }) => {
      if (level === 'warn' || level === 'error') console.error(message)
    },
    workers: [
      worker('service', 'service/index.js', {
        kvNamespaces: exports,
        durableObjects: ownObjects,
        bindings: { ...vars, ...HIGH_LIMITS, PUBLISH_TOKEN },
      }),
      worker('limited', 'service/index.js', {
        kvNamespaces: exports,
        durableObjects: ownObjects,
        bindings: { ...vars, RATE_LIMIT_SHORT: '1/86400', RATE_LIMIT_LONG: '1/86400' },
      }),
      worker('no-limiter', 'no-limiter-worker.js', {
        kvNamespaces: exports,
        durableObjects: {
          ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
        },
        bindings: vars,
      }),
      worker('before', 'write-through-worker.js', {
        kvNamespaces: exports,
        durableObjects: {
          RATE_LIMITER: { className: 'RateLimiter', useSQLite: true },
          ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
        },
        bindings: { ...vars, ...HIGH_LIMITS },
      }),
      worker('baseline', 'baseline-worker.js', { kvNamespaces: exports }),
      worker('walker', 'walker-worker.js', {}),
      ...graceCopyWorkers(worker, { vars, bindings: { ...HIGH_LIMITS, PUBLISH_TOKEN } }),
      ...['probe', 'probe-2'].map((name) =>
        worker(name, 'probe-worker.js', {
          durableObjects: { ...ownObjects, ECHO: { className: 'EchoObject', useSQLite: true } },
          bindings: { ...vars, ...HIGH_LIMITS, ID_SPACE_SIZE: String(CONFIG.alloc.space) },
        }),
      ),
      writeCountWorker(worker, { ...vars, ...HIGH_LIMITS }),
    ],
  }
}

/** Walker throughput inside workerd: inputs uploaded once, batches timed inside and outside. */
async function walkerInWorkerd(base) {
  const out = []
  for (const spec of WALKER_INPUTS) {
    const input = spec.file
      ? new Uint8Array(readFileSync(spec.file))
      : cases.syntheticExport(spec.synthetic, spec.bytes)
    const name = encodeURIComponent(spec.name)
    await expectOk(fetch(`${base}/input?name=${name}`, { method: 'POST', body: input }))
    const check = await (await expectOk(fetch(`${base}/check?name=${name}`))).json()
    const clock = []
    const { iterations, mbps } = await measureThroughput({
      bytes: input.length,
      variants: cases.VARIANTS,
      rounds: CONFIG.walker.rounds,
      minBatchMs: CONFIG.walker.workerdBatchMs,
      async runBatch(variant, n) {
        const t0 = performance.now()
        const response = await expectOk(
          fetch(`${base}/run?name=${name}&variant=${variant}&iterations=${n}`),
        )
        const { ms } = await response.json()
        const outside = performance.now() - t0
        clock.push({ inside: ms, outside })
        // If workerd's clock did not advance (as in production), the outside time is all we have.
        return ms > 0 ? ms : outside
      },
    })
    const insideShare = median(clock.filter((c) => c.outside > 50).map((c) => c.inside / c.outside))
    out.push({ name: spec.name, check, iterations, mbps, insideClockShareOfOutside: insideShare })
  }
  return out
}

/** Request path: GET, HEAD, 404, 429 and OPTIONS against the service and its baselines. */
async function requestPath(urls) {
  const fixture = readFileSync(join(FIXTURES, 'animated-80-displays.json'))
  const published = await publishOnce(urls.service, fixture)
  const id = published.id
  // An export above the read-whole threshold (src/exports/serve.ts), so the streamed path runs.
  const large = cases.syntheticExport('sparse', CONFIG.http.streamedBytes)
  const largeId = (await publishOnce(urls.service, large)).id
  // Correctness first: the service substitutes the tag, the baseline gives the stored bytes.
  const substituted = Buffer.from(cases.viaReplaceAll(fixture, 'bde'))
  for (const [name, expected] of [
    ['service', substituted],
    ['no-limiter', substituted],
    ['baseline', fixture],
  ]) {
    const response = await expectOk(fetch(`${urls[name]}/server-api?id=${id}&tag=bde`))
    const got = Buffer.from(await response.arrayBuffer())
    if (!got.equals(expected)) {
      throw new Error(
        `GET on ${name} gave ${got.length} bytes, not the expected ${expected.length}`,
      )
    }
  }
  const ip = (i) => {
    const n = i % CONFIG.http.clientIps
    return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`
  }
  const get = (i) => ({
    path: `/server-api?id=${id}&tag=${TAGS[i % TAGS.length]}`,
    headers: { 'CF-Connecting-IP': ip(i) },
  })
  const getLarge = (i) => ({
    ...get(i),
    path: `/server-api?id=${largeId}&tag=${TAGS[i % TAGS.length]}`,
  })
  const missing = (i) => ({
    path: `/server-api?id=999999&tag=${TAGS[i % TAGS.length]}`,
    headers: { 'CF-Connecting-IP': ip(i) },
  })
  // The limited service admits one request per address a day: prime 16 addresses, then refuse.
  const refusedIp = (i) => `192.0.2.${i % 16}`
  for (let i = 0; i < 16; i++) {
    await fetch(`${urls.limited}/server-api?id=${id}`, {
      headers: { 'CF-Connecting-IP': refusedIp(i) },
    }).then((r) => r.arrayBuffer())
  }
  // A Durable Object per address: the first request from one creates it (and its SQLite
  // database), later ones find it. The cases below measure known addresses, so every one gets a
  // request first; `HEAD new client` measures the other case, a never-seen address every time.
  await runLoad({
    url: urls.service,
    method: 'HEAD',
    connections: CONFIG.http.connections,
    amount: CONFIG.http.clientIps,
    request: get,
  })
  let newClients = 0
  const newClient = () => {
    const n = ++newClients
    return `172.${16 + ((n >> 16) & 15)}.${(n >> 8) & 255}.${n & 255}`
  }
  const preflight = () => ({
    path: `/server-api?id=${id}`,
    headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'GET' },
  })
  const loads = {
    GET: { url: urls.service, request: get, expect: 200 },
    'GET baseline': { url: urls.baseline, request: get, expect: 200 },
    'GET no limiter': { url: urls['no-limiter'], request: get, expect: 200 },
    'GET before': { url: urls.before, request: get, expect: 200 },
    // The same GETs from 16 addresses: their limiter objects are hit often enough to stay in
    // memory (workerd evicts an object about 10 s after its last request).
    'GET 16 clients': {
      url: urls.service,
      request: (i) => ({ ...get(i), headers: { 'CF-Connecting-IP': ip(i % 16) } }),
      expect: 200,
    },
    'GET streamed': { url: urls.service, request: getLarge, expect: 200 },
    'GET streamed baseline': { url: urls.baseline, request: getLarge, expect: 200 },
    HEAD: { url: urls.service, request: get, method: 'HEAD', expect: 200 },
    'HEAD baseline': { url: urls.baseline, request: get, method: 'HEAD', expect: 200 },
    'HEAD no limiter': { url: urls['no-limiter'], request: get, method: 'HEAD', expect: 200 },
    'HEAD before': { url: urls.before, request: get, method: 'HEAD', expect: 200 },
    'HEAD new client': {
      url: urls.service,
      request: (i) => ({ ...get(i), headers: { 'CF-Connecting-IP': newClient() } }),
      method: 'HEAD',
      expect: 200,
    },
    404: { url: urls.service, request: missing, expect: 404 },
    '404 baseline': { url: urls.baseline, request: missing, expect: 404 },
    429: {
      url: urls.limited,
      request: (i) => ({ ...get(i), headers: { 'CF-Connecting-IP': refusedIp(i) } }),
      expect: 429,
    },
    '429 baseline': { url: urls.baseline, request: () => ({ path: '/too-many' }), expect: 429 },
    OPTIONS: { url: urls.service, request: preflight, method: 'OPTIONS', expect: 204 },
    'OPTIONS baseline': { url: urls.baseline, request: preflight, method: 'OPTIONS', expect: 204 },
  }
  const load = (name, durationSeconds) =>
    runLoad({
      url: loads[name].url,
      method: loads[name].method ?? 'GET',
      request: loads[name].request,
      connections: CONFIG.http.connections,
      durationSeconds,
    })
  for (const name of Object.keys(loads)) await load(name, CONFIG.http.warmupSeconds)
  // GET and its two baselines interleave with each other, every other case with its baseline.
  const groups = [
    ['GET', 'GET baseline', 'GET no limiter', 'GET 16 clients', 'GET before'],
    ['GET streamed', 'GET streamed baseline'],
    ['HEAD', 'HEAD baseline', 'HEAD no limiter', 'HEAD new client', 'HEAD before'],
    ['404', '404 baseline'],
    ['429', '429 baseline'],
    ['OPTIONS', 'OPTIONS baseline'],
  ]
  const runs = {}
  for (const group of groups) {
    Object.assign(
      runs,
      await interleave(group, CONFIG.http.rounds, (name) =>
        load(name, CONFIG.http.durationSeconds),
      ),
    )
  }
  const summary = {}
  for (const [name, list] of Object.entries(runs)) {
    const unexpected = list.reduce(
      (sum, run) =>
        sum +
        run.errors +
        Object.entries(run.statuses)
          .filter(([status]) => Number(status) !== loads[name].expect)
          .reduce((s, [, count]) => s + count, 0),
      0,
    )
    summary[name] = {
      rps: median(list.map((run) => run.rps)),
      p50: median(list.map((run) => run.p50)),
      p99: median(list.map((run) => run.p99)),
      cpuMicros: median(list.map((run) => run.serverCpuMicrosPerRequest)),
      systemCpuMicros: median(list.map((run) => (run.serverSystemMs * 1000) / run.requests)),
      requests: list.reduce((sum, run) => sum + run.requests, 0),
      unexpected,
      rounds: list,
    }
  }
  const ratio = (a, b) =>
    pairedRatio(
      runs[a].map((r) => r.rps),
      runs[b].map((r) => r.rps),
    )
  return {
    fixture: 'animated-80-displays',
    bytes: fixture.length,
    id,
    streamedBytes: large.length,
    summary,
    ratios: {
      GET: ratio('GET', 'GET baseline'),
      'GET streamed': ratio('GET streamed', 'GET streamed baseline'),
      'GET vs no limiter': ratio('GET', 'GET no limiter'),
      'GET before': ratio('GET before', 'GET baseline'),
      'HEAD before': ratio('HEAD before', 'HEAD baseline'),
      'GET 16 clients': ratio('GET 16 clients', 'GET baseline'),
      'GET 16 clients vs 1024': ratio('GET 16 clients', 'GET'),
      'HEAD vs no limiter': ratio('HEAD', 'HEAD no limiter'),
      'HEAD new client vs known': ratio('HEAD new client', 'HEAD'),
      'no limiter vs baseline': ratio('GET no limiter', 'GET baseline'),
      HEAD: ratio('HEAD', 'HEAD baseline'),
      404: ratio('404', '404 baseline'),
      429: ratio('429', '429 baseline'),
      OPTIONS: ratio('OPTIONS', 'OPTIONS baseline'),
    },
  }
}

/** The limiter's Durable Object call alone, against a bare RPC to an object without storage. */
async function limiterCost(probe) {
  const { calls, rounds } = CONFIG.limiter
  const keys = calls
  const paths = ['limiter', 'echo', 'write']
  // Twice: a limiter object writes its first request at once and holds the next in memory, so
  // the timed calls are those of clients in mid-stream, as at sustained load.
  for (let warm = 0; warm < 2; warm++) {
    for (const path of paths) await getJson(`${probe}/${path}?n=${calls}&keys=${keys}`)
  }
  const us = await interleave(paths, rounds, async (path) => {
    const { ms } = await getJson(`${probe}/${path}?n=${calls}&keys=${keys}`)
    return (ms * 1000) / calls
  })
  return {
    calls,
    keys,
    hitMicros: median(us.limiter),
    echoMicros: median(us.echo),
    writeMicros: median(us.write),
    ratio: pairedRatio(us.limiter, us.echo),
    rounds: us,
  }
}

/** Publishes per second over HTTP, against storing the same bytes in KV directly. */
async function publishing(urls) {
  const { fixture: name, amount, connections, rounds } = CONFIG.publish
  const body = readFileSync(join(FIXTURES, `${name}.json`))
  const headers = { 'Content-Type': 'application/json' }
  const loads = {
    publish: {
      url: urls.service,
      path: '/editor-api/exports',
      headers: { ...headers, Authorization: `Bearer ${PUBLISH_TOKEN}` },
      expect: 201,
    },
    'KV put baseline': { url: urls.baseline, path: '/kv-put', headers, expect: 201 },
  }
  const load = (name, n) =>
    runLoad({
      url: loads[name].url,
      method: 'POST',
      connections,
      amount: n,
      request: () => ({ path: loads[name].path, headers: loads[name].headers, body }),
    })
  for (const name of Object.keys(loads)) await load(name, connections * 2)
  const runs = await interleave(Object.keys(loads), rounds, (name) => load(name, amount))
  const summary = {}
  for (const [name, list] of Object.entries(runs)) {
    const wrong = list.reduce(
      (sum, r) => sum + r.requests - (r.statuses[loads[name].expect] ?? 0) + r.errors,
      0,
    )
    summary[name] = {
      rps: median(list.map((r) => r.rps)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      cpuMicros: median(list.map((r) => r.serverCpuMicrosPerRequest)),
      unexpected: wrong,
      rounds: list,
    }
  }
  return {
    fixture: name,
    bytes: body.length,
    summary,
    ratio: pairedRatio(
      runs.publish.map((r) => r.rps),
      runs['KV put baseline'].map((r) => r.rps),
    ),
  }
}

/**
 * Allocation latency in a space of 2000 IDs, 0-5% full against 90-95% full. Two allocators (two
 * Workers, each with its own objects) swap roles halfway, so each is measured full and empty as
 * often and a difference between the two instances cancels out.
 */
async function allocation(urls) {
  const { space, fill, batch, rounds } = CONFIG.alloc
  const instances = [urls.probe, urls['probe-2']]
  for (const base of instances) await getJson(`${base}/alloc?count=10&release=1`)
  let duplicates = 0
  const us = { full: [], empty: [] }
  for (const [full, empty] of [instances, [...instances].reverse()]) {
    const filled = await getJson(`${full}/alloc?count=${fill}`)
    if (filled.distinct !== fill) throw new Error(`filling gave ${filled.distinct} distinct IDs`)
    const targets = { full, empty }
    const half = await interleave(['full', 'empty'], Math.ceil(rounds / 2), async (which) => {
      const r = await getJson(`${targets[which]}/alloc?count=${batch}&release=1`)
      duplicates += batch - r.distinct
      return (r.ms * 1000) / batch
    })
    us.full.push(...half.full)
    us.empty.push(...half.empty)
    const { ids, expiresAt } = filled
    await expectOk(
      fetch(`${full}/release`, { method: 'POST', body: JSON.stringify({ ids, expiresAt }) }),
    )
  }
  return {
    space,
    fullFrom: fill / space,
    fullTo: (fill + batch) / space,
    emptyTo: batch / space,
    batch,
    duplicates,
    emptyMicros: median(us.empty),
    fullMicros: median(us.full),
    ratio: pairedRatio(us.full, us.empty),
    rounds: us,
  }
}

async function publishOnce(base, body) {
  const response = await fetch(`${base}/editor-api/exports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${PUBLISH_TOKEN}`, 'Content-Type': 'application/json' },
    body,
  })
  if (response.status !== 201)
    throw new Error(`publish: ${response.status} ${await response.text()}`)
  return response.json()
}

async function getJson(url) {
  return (await expectOk(fetch(url))).json()
}

async function expectOk(pending) {
  const response = await pending
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`)
  return response
}

function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8')
  const shell = (command) => {
    try {
      return execSync(command, { encoding: 'utf8' }).trim()
    } catch {
      return null
    }
  }
  return {
    nproc: Number(shell('nproc')) || os.availableParallelism(),
    cpuModel: /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model,
    memory: shell('free -h'),
    node: process.version,
    workerd: JSON.parse(readFileSync(join(ROOT, 'node_modules/workerd/package.json'), 'utf8'))
      .version,
    miniflare: JSON.parse(readFileSync(join(ROOT, 'node_modules/miniflare/package.json'), 'utf8'))
      .version,
    loadavgBefore: os.loadavg(),
    commit: shell('git rev-parse --short HEAD'),
    uncommittedChanges: shell('git status --porcelain --untracked-files=no')?.length > 0,
  }
}

/** docs/bench-latest.json: the same figures, formatted as Prettier would, for the repository. */
async function saveCopy(r) {
  const prettier = await import('prettier')
  const text = await prettier.format(JSON.stringify(r), { parser: 'json', printWidth: 100 })
  writeFileSync(join(ROOT, 'docs/bench-latest.json'), text)
}
