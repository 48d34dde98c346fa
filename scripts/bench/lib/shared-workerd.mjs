/**
 * The one workerd process the sections measure in: plain Miniflare, every Worker on its own
 * loopback socket (`unsafeDirectSockets`, no Miniflare router in front), driven from this
 * process. The Workers several sections use are defined here (the service three times, the
 * baselines, the probes); a section adds its own with its `workers(define)`.
 *
 * Storage is a folder of the run's own, on the tmpfs `/dev/shm` where there is one, so that the
 * limiter section can read its objects' SQLite files once workerd has stopped.
 */
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { loadWithCpu, workerdPids } from './load.mjs'
import { IN_MEMORY_TMP, inMemoryStorage, printWarningsAndErrors } from './workerd-setup.mjs'
import { compatibilityDate } from './wrangler-toml.mjs'

/** The Workers bundled for every run (lib/workers/), beside the service itself. */
export const SHARED_WORKER_FILES = [
  new URL('./workers/baseline-worker.ts', import.meta.url),
  new URL('./workers/probe-worker.ts', import.meta.url),
]

/**
 * Starts the workerd with the shared Workers and `sectionWorkers(define)` of each section, then
 * gives `use({ mf, urls, runLoad })` the Miniflare, every Worker's address by name and a
 * `runLoad` that records workerd's CPU; stops it, then calls `afterStop(storageDir)` before the
 * storage folder is removed.
 */
export async function withSharedWorkerd(bench, sectionWorkers, use, afterStop) {
  const storage = mkdtempSync(
    join(existsSync(IN_MEMORY_TMP) ? IN_MEMORY_TMP : os.tmpdir(), 'bench-'),
  )
  const define = workerDefinitions(bench)
  const workers = [...sharedWorkers(define, bench), ...sectionWorkers.flatMap((w) => w(define))]
  const mf = inMemoryStorage(
    () =>
      new Miniflare(
        convertV4MiniflareOptions({
          handleStructuredLogs: printWarningsAndErrors,
          resourcePersistencePath: storage,
          workers,
        }),
      ),
  )
  try {
    try {
      await mf.ready
      const runLoad = loadWithCpu(workerdPids())
      const urls = Object.fromEntries(
        await Promise.all(
          workers.map(async ({ name }) => [
            name,
            (await mf.unsafeGetDirectURL(name)).href.replace(/\/$/, ''),
          ]),
        ),
      )
      await use({ mf, urls, runLoad })
    } finally {
      await mf.dispose()
    }
    await afterStop(storage)
  } finally {
    rmSync(storage, { recursive: true, force: true })
  }
}

/**
 * What a section's `workers(define)` gets: `worker(name, script, rest)` makes one Worker's
 * options (`script` a bundle in the build folder, e.g. `service/index.js` or `x-worker.js`), and
 * the settings the bench's Workers share.
 */
function workerDefinitions(bench) {
  const date = compatibilityDate(bench.root)
  const worker = (name, script, rest) => ({
    name,
    modules: true,
    modulesRoot: bench.buildDir,
    scriptPath: join(bench.buildDir, script),
    compatibilityDate: date,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    ...rest,
  })
  return {
    worker,
    /** Vars every Worker of the service gets. */
    vars: { EXPORT_TTL_SECONDS: '600', ID_QUARANTINE_SECONDS: '3600' },
    highLimits: bench.highLimits,
    /** `RATE_LIMIT_FLUSH_SECONDS` of the Workers with a limiter (lib/options.mjs). */
    flush: { RATE_LIMIT_FLUSH_SECONDS: String(bench.flushSeconds) },
    /** The service's Durable Objects, as its own Worker binds them. */
    ownObjects: {
      RATE_LIMITER: { className: 'PrefixRateLimiter', useSQLite: true },
      ID_ALLOCATOR: { className: 'IdAllocator', useSQLite: true },
    },
    exports: { EXPORTS: 'exports' },
    token: bench.token,
    delays: bench.delays,
  }
}

/**
 * The service twice (high limits, with and without the display-model check) and once with 1
 * request per day for 429s; the baselines; the probes. The services flush their limiter's counts
 * after `flush`, so that this work falls within the pause charged to the case that caused it.
 */
function sharedWorkers(d, bench) {
  const { worker, vars, highLimits, flush, ownObjects, exports, token } = d
  const PUBLISH_TOKEN = token
  return [
    worker('service', 'service/index.js', {
      kvNamespaces: exports,
      durableObjects: ownObjects,
      bindings: { ...vars, ...highLimits, ...flush, PUBLISH_TOKEN },
    }),
    worker('policy-off', 'service/index.js', {
      kvNamespaces: exports,
      durableObjects: ownObjects,
      bindings: { ...vars, ...highLimits, ...flush, PUBLISH_TOKEN, EXPORT_POLICY: 'off' },
    }),
    worker('limited', 'service/index.js', {
      kvNamespaces: exports,
      durableObjects: ownObjects,
      bindings: { ...vars, ...flush, RATE_LIMIT_SHORT: '1/86400', RATE_LIMIT_LONG: '1/86400' },
    }),
    worker('baseline', 'baseline-worker.js', { kvNamespaces: exports }),
    ...['probe', 'probe-2'].map((name) =>
      worker(name, 'probe-worker.js', {
        durableObjects: { ...ownObjects, ECHO: { className: 'EchoObject', useSQLite: true } },
        bindings: { ...vars, ...highLimits, ID_SPACE_SIZE: String(bench.config.alloc.space) },
      }),
    ),
  ]
}
