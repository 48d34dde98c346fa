/**
 * The service as the harvest section drives it: driver-worker.ts bundled with the service's
 * Durable Object classes, in one Miniflare with wrangler.toml's own bindings, as `ISOLATES`
 * copies of the Worker (each its own isolate with its own refusal memory, as production has
 * many), the objects living in the first. `step(now, requests)` puts the requests in flight at
 * once at simulated time `now`, spread over the isolates, and answers their statuses.
 */
import { build } from 'esbuild'
import http from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { inMemoryStorage, WORKER_BUILD_OPTIONS } from '../lib/workerd-setup.mjs'
import { openFileLimit, openFiles, workerdProcesses } from './open-files.mjs'

/** Isolates of the Worker: requests go to them in turn, as to the machines of a location. */
export const ISOLATES = Number(process.env.HARVEST_ISOLATES ?? 4)
/** workerd evicts a Durable Object after 10 s without events (src/config.ts says the same). */
export const EVICT_IDLE_MS = 10_000
/**
 * A gap longer than this is one between runs (simulate.mjs spaces them two days apart, longer
 * than any record lives): the alarms due in it only delete, and run at once (driver-worker.ts).
 */
const BETWEEN_RUNS_MS = 86_400_000
/** The editor token of the section's Worker. */
const PUBLISH_TOKEN = 'harvest-token'
/** Storage failures whose log lines are kept (the first ones), and lines kept around each. */
const FAILURES_KEPT = 5
const LINES_AROUND = 5
/** How often the open files are counted while a step is in flight (ms of real time). */
const FILES_SAMPLE_MS = 250
/** Steps of at least this many requests have their peak of open files kept (the bursts). */
const FILES_STEP_KEPT = 500
/** A request line of a storage failure: `503 unavailable`, `Retry-After` 1 (src/http/errors.ts). */
const STORAGE_FAILURE = /"outcome":"(storage_failed|allocator_failed)"/
/**
 * A storage failure that is the read path's lookup of an ID KV does not hold, unanswered: the
 * limiter counts it as a miss (src/observability/log.ts, `unsettled`).
 */
const UNSETTLED = /"unsettled":true/

/**
 * Builds the driver and starts the service. `vars` override wrangler.toml's `[vars]` (only what
 * the simulation needs: an export lifetime that outlasts the simulated days).
 */
export async function startService({ root, buildDir, vars, log }) {
  const require = createRequire(join(root, 'package.json'))
  const { unstable_getMiniflareWorkerOptions } = require('wrangler')
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, 'wrangler.toml'))
  const classes = Object.entries(workerOptions.durableObjects ?? {}).map(([binding, o]) => ({
    binding,
    className: typeof o === 'string' ? o : o.className,
  }))
  const outfile = join(buildDir, 'harvest', 'driver.js')
  await build({
    ...WORKER_BUILD_OPTIONS,
    stdin: { contents: driverEntry(classes), resolveDir: import.meta.dirname, loader: 'ts' },
    outfile,
  })
  const incidents = {}
  // workerd's own lines and the service's warnings, the latest `LINES_AROUND`, and the lines of
  // the first storage failures with those before and after them: what a FAIL says its cause by.
  const recent = []
  const failures = { count: 0, unsettled: 0, firstUnsettled: null, kept: [] }
  let after = []
  const note = (line) => {
    recent.push(line)
    if (recent.length > LINES_AROUND) recent.shift()
    after = after.filter((kept) => kept.after.push(line) < LINES_AROUND)
  }
  // A workerd an earlier service left running (it should be gone: `dispose`), and its files.
  const earlier = workerdProcesses()
  const files = {
    earlierWorkerds: earlier.map((pid) => ({ pid, files: openFiles(pid) })),
    limit: null,
    peak: 0,
    nodePeak: 0,
    steps: [],
  }
  // The bindings and the runtime's dates, as wrangler.toml gives them; not its assets or modules.
  const own = {
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    bindings: workerOptions.bindings,
    kvNamespaces: workerOptions.kvNamespaces,
    durableObjects: workerOptions.durableObjects,
    analyticsEngineDatasets: workerOptions.analyticsEngineDatasets,
  }
  // The bench evicts the objects itself, on simulated time, after running their due alarms
  // (driver-worker.ts). Miniflare's own eviction (10 s of real time idle) would drop what an
  // object holds unwritten before the bench runs the flush alarm that writes it: a step of
  // thousands of requests takes longer than that.
  const ownObjects = Object.fromEntries(
    Object.entries(own.durableObjects ?? {}).map(([binding, o]) => [
      binding,
      { ...(typeof o === 'string' ? { className: o } : o), unsafePreventEviction: true },
    ]),
  )
  const worker = (i) => ({
    ...own,
    name: `harvest-${i}`,
    modules: true,
    modulesRoot: join(buildDir, 'harvest'),
    scriptPath: outfile,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    bindings: { ...own.bindings, ...vars, PUBLISH_TOKEN },
    durableObjects:
      i === 0
        ? ownObjects
        : Object.fromEntries(
            classes.map(({ binding, className }) => [
              binding,
              { className, scriptName: 'harvest-0', useSQLite: true },
            ]),
          ),
  })
  const mf = inMemoryStorage(
    () =>
      new Miniflare(
        convertV4MiniflareOptions({
          workers: Array.from({ length: ISOLATES }, (_, i) => worker(i)),
          handleStructuredLogs: ({ level, message }) => {
            if (STORAGE_FAILURE.test(message)) {
              failures.count++
              if (UNSETTLED.test(message)) {
                failures.unsettled++
                failures.firstUnsettled ??= message
                return
              }
              if (failures.kept.length < FAILURES_KEPT) {
                const kept = { line: message, before: [...recent], after: [] }
                failures.kept.push(kept)
                after.push(kept)
              }
              return
            }
            // The service's request lines (one per request) are dropped; its incidents counted.
            if (message.includes('"event":') && !message.includes('"incident":')) return
            const incident = /"incident":"([a-z_]+)"/.exec(message)?.[1]
            if (incident !== undefined) incidents[incident] = (incidents[incident] ?? 0) + 1
            note(`${level}: ${message.slice(0, 600)}`)
            if (incident === undefined && (level === 'warn' || level === 'error')) {
              console.error(message)
            }
          },
        }),
      ),
  )
  await mf.ready
  const pids = workerdProcesses().filter((pid) => !earlier.includes(pid))
  files.limit = pids.length === 0 ? null : openFileLimit(pids[0])
  /** Files open now in this service's workerd, and in this Node process. */
  const countFiles = () => {
    const counts = pids.map(openFiles)
    const workerd = counts.reduce((a, b) => a + (b ?? 0), 0)
    const node = openFiles(process.pid) ?? 0
    return { workerd, node }
  }
  const urls = await Promise.all(
    Array.from({ length: ISOLATES }, async (_, i) =>
      (await mf.unsafeGetDirectURL(`harvest-${i}`)).href.replace(/\/$/, ''),
    ),
  )
  let lastNow = null
  let turn = 0
  const stats = { steps: 0, requests: 0, alarms: 0, evictions: 0 }
  log?.(`harvest: ${ISOLATES} isolates of the Worker, objects ${classes.map((c) => c.className)}`)
  return {
    /** The Worker's vars: wrangler.toml's, with `vars` over them. */
    vars: { ...own.bindings, ...vars },
    stats,
    incidents,
    /**
     * The storage failures logged (`503 unavailable`, `Retry-After` 1): how many, how many of them
     * unsettled lookups (counted as misses; the first one's line), and the first other ones' lines,
     * with workerd's and the service's lines before and after each.
     */
    failures,
    /**
     * Open files: the soft limit of this service's workerd, its peak and each burst's, this Node
     * process's peak, and the workerds of earlier services still running when it started.
     */
    files,
    /** Waits for the log lines still on their way from workerd (its output is piped). */
    settleLogs: () => new Promise((resolve) => setTimeout(resolve, 1000)),
    /** Answers `[status, retryAfterSeconds, code]` per request, in order (driver-worker.ts). */
    async step(now, requests) {
      if (lastNow !== null && now < lastNow) throw new Error('the simulated clock went back')
      const evictAt =
        lastNow !== null && now - lastNow > EVICT_IDLE_MS ? lastNow + EVICT_IDLE_MS : null
      const betweenRuns = lastNow !== null && now - lastNow > BETWEEN_RUNS_MS
      const clock = await post(`${urls[0]}/clock`, { now, evictAt, betweenRuns })
      stats.alarms += clock.alarms
      if (clock.evicted > 0) stats.evictions++
      lastNow = now
      const parts = urls.map(() => [])
      const where = requests.map((request) => {
        const i = turn++ % ISOLATES
        parts[i].push(request)
        return [i, parts[i].length - 1]
      })
      // The step's peak of open files: counted while it is in flight and once it is answered.
      let peak = { workerd: 0, node: 0 }
      const sample = () => {
        const c = countFiles()
        peak = { workerd: Math.max(peak.workerd, c.workerd), node: Math.max(peak.node, c.node) }
      }
      const sampler = setInterval(sample, FILES_SAMPLE_MS)
      let answers
      try {
        answers = await Promise.all(
          parts.map((part, i) =>
            part.length === 0 ? [] : post(`${urls[i]}/step`, { now, requests: part }),
          ),
        )
      } finally {
        clearInterval(sampler)
      }
      sample()
      files.peak = Math.max(files.peak, peak.workerd)
      files.nodePeak = Math.max(files.nodePeak, peak.node)
      if (requests.length >= FILES_STEP_KEPT) {
        files.steps.push({ now, requests: requests.length, files: peak.workerd })
      }
      stats.steps++
      stats.requests += requests.length
      return where.map(([i, j]) => answers[i][j])
    },
    /** The latest penalty end (ms; 0: none) of the networks of `addresses`, as stored. */
    async penaltyUntil(addresses) {
      return (await post(`${urls[0]}/penalties`, { addresses })).penaltyUntil
    },
    /** Publishes `count` exports at `now` through the editor API; answers their IDs. */
    async publish(now, count, exportBody) {
      lastNow = Math.max(lastNow ?? now, now)
      return post(`${urls[0]}/publish`, { now, count, token: PUBLISH_TOKEN, exportBody })
    },
    /** Ends the Miniflare; `files.leftAfterDispose`: its workerds still there after (0). */
    async dispose() {
      await mf.dispose()
      files.leftAfterDispose = pids.filter((pid) => openFiles(pid) !== null).length
    },
  }
}

/**
 * POSTs `body` as JSON and parses the answer. node:http rather than fetch: a step of 10,000
 * requests may take minutes on busy cores, past fetch's fixed wait for the response headers. A
 * connection each (no keep-alive): a kept socket the server has closed fails the next step.
 */
function post(url, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: false }, (response) => {
      const chunks = []
      response.on('data', (chunk) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        if (response.statusCode === 200) resolve(JSON.parse(text))
        else reject(new Error(`${url}: ${response.statusCode} ${text}`))
      })
    })
    request.on('error', reject)
    request.end(JSON.stringify(body))
  })
}

/** The driver's entry: its routes, and each Durable Object class wrapped for the bench. */
function driverEntry(classes) {
  return [
    `import * as service from '../../../src/index'`,
    `import { benchObject } from './driver-worker'`,
    `export { default } from './driver-worker'`,
    ...classes.map(
      ({ binding, className }) =>
        `export const ${className} = benchObject(service.${className}, '${binding}')`,
    ),
  ].join('\n')
}
