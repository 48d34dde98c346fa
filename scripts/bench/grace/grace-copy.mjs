/**
 * The `grace` section of `npm run bench`: what the allocator's grace copy costs. Publishing
 * stores each export twice (the shard's copy, then KV): publishes per second against the same
 * bundle with `PUBLISH_GRACE_SECONDS=0` (no copy, a KV write only). A location that KV has not
 * reached reads the copy from the shard: GET and HEAD there (the service with
 * `SIMULATED_KV_LAG_SECONDS`, so every KV entry counts as missing) against the same reads
 * answered from KV, both by the same bundle on the same exports.
 *
 * Two extra Workers run the wrangler bundle with those vars; both use the `service` Worker's
 * Durable Objects, so IDs, copies and rate-limit counts are shared with it.
 */
import { kb, ms } from '../lib/rows.mjs'
import { EDITOR_EXPORTS_PATH, SERVER_API_PATH } from '../../../src/contract/routes.ts'

/** The section's Workers, built with lib/shared-workerd.mjs's `worker(name, script, rest)`. */
export function graceCopyWorkers(worker, { vars, bindings }) {
  const sharedObjects = {
    RATE_LIMITER: { className: 'PrefixRateLimiter', scriptName: 'service', useSQLite: true },
    ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
  }
  const service = (name, extra) =>
    worker(name, 'service/index.js', {
      kvNamespaces: { EXPORTS: 'exports' },
      durableObjects: sharedObjects,
      bindings: { ...vars, ...bindings, ...extra },
    })
  return [
    service('lagged', { SIMULATED_KV_LAG_SECONDS: '600' }),
    service('no-grace', { PUBLISH_GRACE_SECONDS: '0' }),
  ]
}

/**
 * Runs the section. `bench` brings the dispatcher's pieces: `urls` (every Worker's, its own
 * included), `runLoad`, `interleave`, `median`, `pairedRatio`, `publishOnce`, the `fixture` bytes, a
 * `large` export (streamed), `tags`, `config` (`http` and `publish` of CONFIG).
 */
export async function graceCopyBench(bench) {
  const { fixture, large } = bench
  return {
    publish: await publishCost(bench),
    read: await readCost(bench),
    bytes: fixture.length,
    largeBytes: large.length,
  }
}

/** Publishes per second with the copy, without it, and the bare KV put of the same body. */
async function publishCost({
  urls,
  runLoad,
  interleave,
  median,
  pairedRatio,
  fixture,
  large,
  config,
}) {
  const { amount, connections, rounds } = config.publish
  const headers = {
    'Content-Type': 'application/json',
    Authorization: `Bearer ${config.publish.token}`,
  }
  const cases = {
    publish: { url: urls.service, path: EDITOR_EXPORTS_PATH, body: fixture },
    'publish without copy': { url: urls['no-grace'], path: EDITOR_EXPORTS_PATH, body: fixture },
    'KV put': { url: urls.baseline, path: '/kv-put', body: fixture },
    'publish large': { url: urls.service, path: EDITOR_EXPORTS_PATH, body: large },
    'publish large without copy': {
      url: urls['no-grace'],
      path: EDITOR_EXPORTS_PATH,
      body: large,
    },
  }
  const load = (name, n) =>
    runLoad({
      url: cases[name].url,
      method: 'POST',
      connections,
      // A large publish takes about ten times as long: a tenth as many keep the run short.
      amount: name.includes('large') ? Math.max(4, Math.round(n / 10)) : n,
      request: () => ({ path: cases[name].path, headers, body: cases[name].body }),
    })
  for (const name of Object.keys(cases)) await load(name, connections * 2)
  const runs = {
    ...(await interleave(['publish', 'publish without copy', 'KV put'], rounds, (name) =>
      load(name, amount),
    )),
    ...(await interleave(['publish large', 'publish large without copy'], rounds, (name) =>
      load(name, amount),
    )),
  }
  return summarize(runs, () => 201, median, pairedRatio, {
    'publish vs without copy': ['publish', 'publish without copy'],
    'publish vs KV put': ['publish', 'KV put'],
    'without copy vs KV put': ['publish without copy', 'KV put'],
    'publish large vs without copy': ['publish large', 'publish large without copy'],
  })
}

/**
 * GET and HEAD of the same exports from the copy (the lagged Worker) and from KV (the service).
 * Published right before, so that the whole measurement falls within the 120 s of grace.
 */
async function readCost({
  urls,
  runLoad,
  interleave,
  median,
  pairedRatio,
  publishOnce,
  fixture,
  large,
  tags,
  config,
}) {
  const { connections, durationSeconds, warmupSeconds, rounds, clientIps } = config.http
  const id = (await publishOnce(urls.service, fixture)).id
  const largeId = (await publishOnce(urls.service, large)).id
  // Correctness first: both ways give the same bytes.
  for (const which of [id, largeId]) {
    const [fromCopy, fromKv] = await Promise.all(
      [urls.lagged, urls.service].map(async (url) => {
        const res = await fetch(`${url}${SERVER_API_PATH}?id=${which}&tag=bde`)
        if (res.status !== 200) throw new Error(`GET ${url} of ${which}: ${res.status}`)
        return Buffer.from(await res.arrayBuffer())
      }),
    )
    if (!fromCopy.equals(fromKv)) throw new Error(`the copy of ${which} differs from KV`)
  }
  const ip = (i) => `10.200.${(i % clientIps) >> 8}.${i & 255}`
  const read = (which) => (i) => ({
    path: `${SERVER_API_PATH}?id=${which}&tag=${tags[i % tags.length]}`,
    headers: { 'CF-Connecting-IP': ip(i) },
  })
  const cases = {
    'GET copy': { url: urls.lagged, request: read(id) },
    'GET KV': { url: urls.service, request: read(id) },
    'GET copy streamed': { url: urls.lagged, request: read(largeId) },
    'GET KV streamed': { url: urls.service, request: read(largeId) },
    'HEAD copy': { url: urls.lagged, request: read(id), method: 'HEAD' },
    'HEAD KV': { url: urls.service, request: read(id), method: 'HEAD' },
  }
  const load = (name, seconds) =>
    runLoad({
      url: cases[name].url,
      method: cases[name].method ?? 'GET',
      request: cases[name].request,
      connections,
      durationSeconds: seconds,
    })
  for (const name of Object.keys(cases)) await load(name, warmupSeconds)
  const runs = {}
  for (const group of [
    ['GET copy', 'GET KV'],
    ['GET copy streamed', 'GET KV streamed'],
    ['HEAD copy', 'HEAD KV'],
  ]) {
    Object.assign(runs, await interleave(group, rounds, (name) => load(name, durationSeconds)))
  }
  return summarize(runs, () => 200, median, pairedRatio, {
    GET: ['GET copy', 'GET KV'],
    'GET streamed': ['GET copy streamed', 'GET KV streamed'],
    HEAD: ['HEAD copy', 'HEAD KV'],
  })
}

/** Medians per case, wrong statuses counted, and the paired ratios asked for. */
function summarize(runs, expected, median, pairedRatio, pairs) {
  const summary = {}
  for (const [name, list] of Object.entries(runs)) {
    summary[name] = {
      rps: median(list.map((r) => r.rps)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      cpuMicros: median(list.map((r) => r.serverCpuMicrosPerRequest)),
      unexpected: list.reduce(
        (sum, r) => sum + r.requests - (r.statuses[expected(name)] ?? 0) + r.errors,
        0,
      ),
      rounds: list,
    }
  }
  const ratios = Object.fromEntries(
    Object.entries(pairs).map(([what, [a, b]]) => [
      what,
      pairedRatio(
        runs[a].map((r) => r.rps),
        runs[b].map((r) => r.rps),
      ),
    ]),
  )
  return { summary, ratios }
}

/** The section's table rows. */
export function graceCopyRows(results) {
  const g = results.grace
  if (!g) return []
  const rate = (s, unit) =>
    `${s.rps >= 100 ? Math.round(s.rps).toLocaleString('en-US') : s.rps.toFixed(1)} ${unit}, p50 ${s.p50.toFixed(1)} ms, ${ms(s.cpuMicros)} CPU/req`
  const clean = (part, ...names) =>
    names.every((n) => part.summary[n].unexpected === 0) ? '' : 'FAIL'
  const p = g.publish
  const r = g.read
  const row = (what, part, subject, baseline, ratio) => ({
    area: 'grace',
    case: what,
    subject: rate(part.summary[subject], part === p ? '/s' : 'req/s'),
    baseline: `${baseline}: ${rate(part.summary[ratio[1]], part === p ? '/s' : 'req/s')}`,
    ratio: part.ratios[ratio[0]],
    target: '',
    met: clean(part, subject, ratio[1]),
  })
  return [
    row(
      `publish ${kb(g.bytes)} with the grace copy`,
      p,
      'publish',
      'without the copy (PUBLISH_GRACE_SECONDS=0)',
      ['publish vs without copy', 'publish without copy'],
    ),
    row(`publish ${kb(g.bytes)} with the grace copy`, p, 'publish', 'bare KV put of the body', [
      'publish vs KV put',
      'KV put',
    ]),
    row(
      `publish ${kb(g.largeBytes)} (copy in ${Math.ceil(g.largeBytes / 1048576)} chunks)`,
      p,
      'publish large',
      'without the copy',
      ['publish large vs without copy', 'publish large without copy'],
    ),
    row(
      `GET ${kb(g.bytes)} from the grace copy (KV lagging)`,
      r,
      'GET copy',
      'KV hit, same bundle',
      ['GET', 'GET KV'],
    ),
    row(
      `GET ${kb(g.largeBytes)} from the grace copy, streamed`,
      r,
      'GET copy streamed',
      'KV hit, streamed',
      ['GET streamed', 'GET KV streamed'],
    ),
    row('HEAD from the grace copy', r, 'HEAD copy', 'KV hit', ['HEAD', 'HEAD KV']),
  ]
}
