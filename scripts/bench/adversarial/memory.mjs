/**
 * The adversarial publishes' memory: the peak RSS growth of a freshly started workerd running
 * only the service while it takes one publish, beside a fresh one running only the bare Worker
 * that puts the same body into KV (bound: growth at most the bare Worker's plus the body's
 * size). A fresh process per figure, as a peak only grows. Before the measured publish each
 * takes the warm-up of its shape, the same shape in a 2 MB body (`warmUps`, shapes.mjs
 * `warmUpOf`): what an isolate that has served that shape once holds already (the code of the
 * check's paths the shape runs, compiled once per isolate; V8's young generation grown to its
 * working size, about 20 MiB whatever the body) is not counted as the body's.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { EDITOR_EXPORTS_PATH } from '../../../src/contract/routes.ts'
import { workerdPids } from '../lib/load.mjs'
import { printWarningsAndErrors } from '../lib/workerd-setup.mjs'
import { compatibilityDate } from '../lib/wrangler-toml.mjs'

const VARS = { EXPORT_TTL_SECONDS: '600', ID_QUARANTINE_SECONDS: '3600' }

/** Each body's growth under the service and under the bare KV put. */
export async function publishMemory({ root, buildDir, token, highLimits, bodies, warmUps, log }) {
  const figures = {}
  for (const [name, body] of Object.entries(bodies)) {
    log(`adversarial memory: a fresh workerd per publish (${name}) and per bare KV put`)
    const setup = {
      buildDir,
      date: compatibilityDate(root),
      token,
      highLimits,
      warmUp: warmUps[name],
    }
    figures[name] = {
      bytes: body.length,
      subject: await growthOf(setup, 'service', body),
      baseline: await growthOf(setup, 'baseline', body),
    }
  }
  return figures
}

/** The growth of a fresh workerd running only `worker` while it takes `body`. */
async function growthOf(setup, worker, body) {
  const token = worker === 'service' ? setup.token : null
  const mf = new Miniflare(convertV4MiniflareOptions(options(setup, worker)))
  try {
    await mf.ready
    const pids = workerdPids()
    const url = (await mf.unsafeGetDirectURL(worker)).href.replace(/\/$/, '')
    // Compiling the code, creating the Durable Objects and opening KV are not counted.
    await post(
      url,
      new TextEncoder().encode('{"content":{"meta":{"a":"[MODELSERVERTAG]"}}}'),
      token,
    )
    await post(url, setup.warmUp, token)
    let before = 0
    for (const pid of pids) {
      // 5: set the peak resident set size to the current one (Linux 4.0 and later).
      writeFileSync(`/proc/${pid}/clear_refs`, '5')
      before += statusKiB(pid, 'VmRSS') * 1024
    }
    const status = await post(url, body, token)
    const peak = pids.reduce((sum, pid) => sum + statusKiB(pid, 'VmHWM') * 1024, 0)
    return { status, growthBytes: peak - before }
  } finally {
    await mf.dispose()
  }
}

function options({ buildDir, date, token, highLimits }, worker) {
  const common = {
    name: worker,
    modules: true,
    modulesRoot: buildDir,
    compatibilityDate: date,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    kvNamespaces: { EXPORTS: 'exports' },
  }
  const service = {
    scriptPath: join(buildDir, 'service/index.js'),
    durableObjects: {
      RATE_LIMITER: { className: 'PrefixRateLimiter', useSQLite: true },
      ID_ALLOCATOR: { className: 'IdAllocator', useSQLite: true },
    },
    bindings: { ...VARS, ...highLimits, PUBLISH_TOKEN: token },
  }
  const baseline = { scriptPath: join(buildDir, 'baseline-worker.js') }
  return {
    handleStructuredLogs: printWarningsAndErrors,
    workers: [{ ...common, ...(worker === 'service' ? service : baseline) }],
  }
}

/** Posts `body` (a publish with `token`, else a bare KV put); the status, which must be 201 or 400. */
async function post(url, body, token) {
  const response = await fetch(token ? `${url}${EDITOR_EXPORTS_PATH}` : `${url}/kv-put`, {
    method: 'POST',
    headers: token ? { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } : {},
    body,
  })
  const text = await response.text()
  if (response.status !== 201 && response.status !== 400) {
    throw new Error(`${response.url}: ${response.status} ${text}`)
  }
  return response.status
}

function statusKiB(pid, field) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1])
}
