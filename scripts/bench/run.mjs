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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { allocation } from './allocation.mjs'
import { graceCopyBench, graceCopyWorkers } from './grace-copy.mjs'
import { harvestSimulation } from './harvest.mjs'
import { latencyModel, latencyWorkers } from './latency.mjs'
import { limiterCost } from './limiter.mjs'
import { cpuMillis, runLoad as runLoadOnly, workerdPids } from './load.mjs'
import { workerdMemory } from './memory-workerd.mjs'
import { pageBench } from './page.mjs'
import { publishing } from './publishing.mjs'
import { renderTable, tableRows } from './report.mjs'
import { requestPath } from './request-path.mjs'
import { expectOk, publishOnce } from './service-calls.mjs'
import { interleave, measureThroughput, median, pairedRatio } from './stats.mjs'
import { WORKER_BUILD_OPTIONS, printWarningsAndErrors } from './workerd-setup.mjs'
import { measureStorage, sustainedWrites, writeCountWorker } from './write-behind.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const FIXTURES = join(ROOT, 'fixtures')
const OUT_DIR = join(ROOT, 'bench-results')
const BUILD = join(OUT_DIR, 'build')
const args = process.argv.slice(2)
const QUICK = args.includes('--quick')
const SAVE = args.includes('--save')
/** `--only a,b`: run only these sections (walker, memory, page, request, limiter, harvest, publish, grace); others are left out of the table. */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null
const runs = (section) => ONLY === null || ONLY.includes(section)
if (ONLY !== null && SAVE) throw new Error('--save keeps whole runs only: drop --only')
/** `--entry FILE`: bench a candidate Worker entry (bundled with esbuild) instead of the tree's. */
const ENTRY = args.includes('--entry') ? args[args.indexOf('--entry') + 1] : null
/** `--limiter-delay-ms N`, `--kv-delay-ms N`: the latency model's waits (latency-worker.ts). */
const numberArg = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback
const DELAYS = {
  limiterMs: numberArg('--limiter-delay-ms', 5),
  kvMs: numberArg('--kv-delay-ms', 10),
}

/** A tmpfs, for Miniflare's storage (`inMemoryStorage`). */
const IN_MEMORY_TMP = '/dev/shm'
const SYNTHETIC_BYTES = 20_000_000
const PUBLISH_TOKEN = 'bench-token'
/** Limits no benchmark reaches, so the limiter admits (and counts) every request. */
const HIGH_LIMITS = {
  RATE_LIMIT_SHORT: '999999999/60',
  RATE_LIMIT_LONG: '999999999/3600',
  // Misses are counted (the 404 case pays the call that counts them), never penalized.
  RATE_LIMIT_CLIENT_MISSES: '999999999/3600',
  RATE_LIMIT_PREFIX_MISSES: '999999999/3600',
}
/**
 * `RATE_LIMIT_FLUSH_SECONDS` of the request section's limited Workers: the limiter's storage
 * work trails its requests by up to this long, and each run of a case served by a limiter is
 * followed by a pause of this plus a second that is charged to it (request-path.mjs).
 */
const BENCH_FLUSH_SECONDS = 1
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
    flushSeconds: BENCH_FLUSH_SECONDS,
  },
  limiter: {
    calls: QUICK ? 100 : 400,
    rounds: QUICK ? 2 : 5,
    sustainedSeconds: QUICK ? 20 : 60,
    latencyRequests: QUICK ? 30 : 150,
    delays: DELAYS,
  },
  publish: {
    fixture: 'animated-80-displays',
    amount: QUICK ? 20 : 100,
    connections: 4,
    rounds: QUICK ? 1 : 3,
  },
  alloc: { space: 2000, fill: 1800, batch: 100, rounds: QUICK ? 4 : 16 },
  page: { rounds: QUICK ? 1 : 3 },
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
  results.memoryWorkerd = await workerdMemory({ root: ROOT, buildDir: BUILD, log })
}

// Before the Miniflare below starts: the page's service is `npm start`'s, with its own workerd.
if (runs('page')) {
  log('the try-it page')
  results.page = await pageBench({ root: ROOT, rounds: CONFIG.page.rounds, log })
}

if (runs('harvest')) {
  const policies = await import(pathToFileURL(join(BUILD, 'harvest-policy.mjs')).href)
  const vars = deployedVars()
  results.harvest = harvestSimulation(
    { today: policies.todayPolicy, service: () => policies.servicePolicy(vars) },
    log,
  )
}

/** workerd's processes, whose CPU time each load run records. */
let serverPids = []
/**
 * Miniflare's storage, in a folder of this run's own (on the tmpfs where there is one), so that
 * the limiter objects' SQLite files can be read once workerd has stopped; removed at the end.
 */
const STORAGE = mkdtempSync(join(existsSync(IN_MEMORY_TMP) ? IN_MEMORY_TMP : os.tmpdir(), 'bench-'))
const mf = inMemoryStorage(() => new Miniflare(convertV4MiniflareOptions(miniflareOptions())))
try {
  await mf.ready
  serverPids = workerdPids()
  const url = async (name) => (await mf.unsafeGetDirectURL(name)).href.replace(/\/$/, '')
  const urls = Object.fromEntries(
    await Promise.all(
      [
        'service',
        'policy-off',
        'limited',
        'no-limiter',
        'no-storage',
        'baseline',
        'walker',
        'probe',
        'probe-2',
        'writes',
        'latency',
        'latency-no-limiter',
      ].map(async (name) => [name, await url(name)]),
    ),
  )
  if (runs('walker')) {
    log('walker in workerd')
    results.walkerWorkerd = await walkerInWorkerd(urls.walker)
  }
  if (runs('request')) {
    log('request path')
    results.http = await requestPath({
      urls,
      runLoad,
      cases,
      fixtures: FIXTURES,
      tags: TAGS,
      config: CONFIG.http,
      token: PUBLISH_TOKEN,
    })
  }
  if (runs('limiter')) {
    log('limiter')
    // The model times single requests: first, before the probe's objects have writes and alarms
    // to come, and after a pause in which the request section's last ones are done.
    await new Promise((resolve) => setTimeout(resolve, (BENCH_FLUSH_SECONDS + 1) * 1000))
    log(`latency model: limiter +${DELAYS.limiterMs} ms, KV +${DELAYS.kvMs} ms`)
    results.latency = await latencyModel({
      urls,
      fixtures: FIXTURES,
      token: PUBLISH_TOKEN,
      delays: DELAYS,
      requests: CONFIG.limiter.latencyRequests,
    })
    results.limiter = await limiterCost(urls.probe, CONFIG.limiter)
    results.writes = await sustainedWrites(urls.writes, {
      seconds: CONFIG.limiter.sustainedSeconds,
      flushSeconds: 9,
      log,
    })
  }
  if (runs('publish')) {
    log('publishing')
    results.publish = await publishing({
      urls,
      runLoad,
      fixtures: FIXTURES,
      config: CONFIG.publish,
      token: PUBLISH_TOKEN,
    })
    log('ID allocation')
    results.alloc = await allocation(urls, CONFIG.alloc)
  }
  if (runs('grace')) {
    log('grace copy')
    const fixture = readFileSync(join(FIXTURES, `${CONFIG.publish.fixture}.json`))
    const large = cases.syntheticExport('sparse', CONFIG.http.streamedBytes)
    const config = { ...CONFIG, publish: { ...CONFIG.publish, token: PUBLISH_TOKEN } }
    const publish = (base, body) => publishOnce(base, body, PUBLISH_TOKEN)
    const bench = {
      mf,
      urls,
      runLoad,
      interleave,
      median,
      pairedRatio,
      publishOnce: publish,
      tags: TAGS,
    }
    results.grace = await graceCopyBench({ ...bench, fixture, large, config })
  }
} finally {
  await mf.dispose()
}
try {
  if (results.writes) await measureStorage(results.writes, STORAGE)
} finally {
  rmSync(STORAGE, { recursive: true, force: true })
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

/**
 * A load run, plus the CPU time workerd and this process spent on it. With `settleSeconds`, the
 * run is followed by a pause that long, and workerd's CPU during it (the work the run's requests
 * left behind, such as a limiter's deferred writes) is part of the run's CPU figures, not of its
 * duration or request rate; `settleCpuMs` says how much of it there was.
 */
async function runLoad({ settleSeconds = 0, ...options }) {
  const server = cpuMillis(serverPids)
  const client = process.cpuUsage()
  const run = await runLoadOnly(options)
  const { user, system } = process.cpuUsage(client)
  const loaded = cpuMillis(serverPids)
  if (settleSeconds > 0) await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000))
  const after = cpuMillis(serverPids)
  run.serverUserMs = after.user - server.user
  run.serverSystemMs = after.system - server.system
  run.serverCpuMs = run.serverUserMs + run.serverSystemMs
  run.settleCpuMs = after.user + after.system - loaded.user - loaded.system
  run.clientCpuMs = (user + system) / 1000
  run.serverCpuMicrosPerRequest = (run.serverCpuMs * 1000) / run.requests
  return run
}

/**
 * `create()`, with Miniflare's storage (the Durable Objects' SQLite files, KV) in memory where the
 * machine has a tmpfs: Miniflare keeps it under the system's temp folder, and on this machine's
 * disk, shared with other tenants, each new SQLite database (a limiter object's first request)
 * took 15-25 ms, a cost of the machine that no production object pays and that hid the request
 * path under it. Miniflare removes the folder when disposed.
 */
function inMemoryStorage(create) {
  const before = process.env.TMPDIR
  if (existsSync(IN_MEMORY_TMP)) process.env.TMPDIR = IN_MEMORY_TMP
  try {
    return create()
  } finally {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
  }
}

/** Bundles: the Worker itself through wrangler, the bench Workers and the walker cases through esbuild. */
async function buildBundles() {
  mkdirSync(BUILD, { recursive: true })
  if (ENTRY) {
    log(`building the candidate Worker ${ENTRY} (esbuild)`)
    await build({
      ...WORKER_BUILD_OPTIONS,
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
    'memory-limiter-worker',
    'probe-worker',
    'write-count-worker',
    'latency-worker',
  ]) {
    await build({
      ...WORKER_BUILD_OPTIONS,
      entryPoints: [join(ROOT, `scripts/bench/${name}.ts`)],
      outfile: join(BUILD, `${name}.js`),
    })
  }
  for (const name of ['walker-cases', 'harvest-policy']) {
    await build({
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      logLevel: 'warning',
      entryPoints: [join(ROOT, `scripts/bench/${name}.ts`)],
      outfile: join(BUILD, `${name}.mjs`),
    })
  }
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

/** The `[vars]` of wrangler.toml's top-level (production) environment, as strings. */
function deployedVars() {
  const toml = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8')
  const topLevel = toml.split(/^\[env\./m)[0]
  const vars = topLevel.split(/^\[vars\]$/m)[1]?.split(/^\[/m)[0] ?? ''
  return Object.fromEntries([...vars.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]))
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

/**
 * One workerd process: the service twice (high limits, and 1 request per day for 429s), the
 * bench Workers. The services flush their limiter's counts after `BENCH_FLUSH_SECONDS`, so that
 * this work falls within the pause charged to the case that caused it.
 */
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
    RATE_LIMITER: { className: 'PrefixRateLimiter', useSQLite: true },
    ID_ALLOCATOR: { className: 'IdAllocator', useSQLite: true },
  }
  const exports = { EXPORTS: 'exports' }
  const flush = { RATE_LIMIT_FLUSH_SECONDS: String(BENCH_FLUSH_SECONDS) }
  return {
    handleStructuredLogs: printWarningsAndErrors,
    resourcePersistencePath: STORAGE,
    workers: [
      worker('service', 'service/index.js', {
        kvNamespaces: exports,
        durableObjects: ownObjects,
        bindings: { ...vars, ...HIGH_LIMITS, ...flush, PUBLISH_TOKEN },
      }),
      worker('policy-off', 'service/index.js', {
        kvNamespaces: exports,
        durableObjects: ownObjects,
        bindings: { ...vars, ...HIGH_LIMITS, ...flush, PUBLISH_TOKEN, EXPORT_POLICY: 'off' },
      }),
      worker('limited', 'service/index.js', {
        kvNamespaces: exports,
        durableObjects: ownObjects,
        bindings: { ...vars, ...flush, RATE_LIMIT_SHORT: '1/86400', RATE_LIMIT_LONG: '1/86400' },
      }),
      worker('no-limiter', 'no-limiter-worker.js', {
        kvNamespaces: exports,
        durableObjects: {
          ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
        },
        bindings: vars,
      }),
      worker('no-storage', 'memory-limiter-worker.js', {
        kvNamespaces: exports,
        durableObjects: {
          RATE_LIMITER: { className: 'RateLimiter', useSQLite: true },
          ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
        },
        bindings: { ...vars, ...HIGH_LIMITS, ...flush },
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
      ...latencyWorkers(worker, { vars: { ...vars, ...HIGH_LIMITS, ...flush }, delays: DELAYS }),
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
