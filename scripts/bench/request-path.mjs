/**
 * The request section: GET, HEAD, 404, 429 and OPTIONS against the service and its baselines
 * (docs/performance.md). `runLoad` is run.mjs's, which records workerd's CPU time per run.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expectOk, publishOnce } from './service-calls.mjs'
import { interleave, median, pairedRatio } from './stats.mjs'
import { cleanRuns, kb, ms, requestRate, row, verdict } from './rows.mjs'
import { SERVER_API_PATH } from '../../src/contract/routes.ts'

/** workerd evicts a Durable Object this long after its last request (about; 9.8 s is kept). */
const IDLE_EVICTION_SECONDS = 10

/** Request path: GET, HEAD, 404, 429 and OPTIONS against the service and its baselines. */
export async function requestPath({ urls, runLoad, cases, fixtures, tags, config, token }) {
  const fixture = readFileSync(join(fixtures, 'animated-80-displays.json'))
  const published = await publishOnce(urls.service, fixture, token)
  const id = published.id
  // An export above the read-whole threshold (src/exports/serve.ts), so the streamed path runs.
  const large = cases.syntheticExport('sparse', config.streamedBytes)
  const largeId = (await publishOnce(urls.service, large, token)).id
  // Correctness first: the service substitutes the tag, the baseline gives the stored bytes.
  const substituted = Buffer.from(cases.viaReplaceAll(fixture, 'bde'))
  for (const [name, expected] of [
    ['service', substituted],
    ['no-limiter', substituted],
    ['no-storage', substituted],
    ['baseline', fixture],
  ]) {
    const response = await expectOk(fetch(`${urls[name]}${SERVER_API_PATH}?id=${id}&tag=bde`))
    const got = Buffer.from(await response.arrayBuffer())
    if (!got.equals(expected)) {
      throw new Error(
        `GET on ${name} gave ${got.length} bytes, not the expected ${expected.length}`,
      )
    }
  }
  const ip = (i) => {
    const n = i % config.clientIps
    return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`
  }
  const get = (i) => ({
    path: `${SERVER_API_PATH}?id=${id}&tag=${tags[i % tags.length]}`,
    headers: { 'CF-Connecting-IP': ip(i) },
  })
  const getLarge = (i) => ({
    ...get(i),
    path: `${SERVER_API_PATH}?id=${largeId}&tag=${tags[i % tags.length]}`,
  })
  const missing = (i) => ({
    path: `${SERVER_API_PATH}?id=999999&tag=${tags[i % tags.length]}`,
    headers: { 'CF-Connecting-IP': ip(i) },
  })
  // The limited service admits one request per address a day: prime 16 addresses, then refuse.
  const refusedIp = (i) => `192.0.2.${i % 16}`
  for (let i = 0; i < 16; i++) {
    await fetch(`${urls.limited}${SERVER_API_PATH}?id=${id}`, {
      headers: { 'CF-Connecting-IP': refusedIp(i) },
    }).then((r) => r.arrayBuffer())
  }
  // A Durable Object per address: the first request from one creates it (and its SQLite
  // database), later ones find it. The cases below measure known addresses, so every one gets a
  // request first; `HEAD new client` measures the other case, a never-seen address every time.
  for (const url of [urls.service, urls['no-storage']]) {
    await runLoad({
      url,
      method: 'HEAD',
      connections: config.connections,
      amount: config.clientIps,
      request: get,
    })
  }
  let newClients = 0
  const newClient = () => {
    const n = ++newClients
    return `172.${16 + ((n >> 16) & 15)}.${(n >> 8) & 255}.${n & 255}`
  }
  const sixteen = (i) => ({ ...get(i), headers: { 'CF-Connecting-IP': ip(i % 16) } })
  const preflight = () => ({
    path: `${SERVER_API_PATH}?id=${id}`,
    headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'GET' },
  })
  const loads = {
    GET: { url: urls.service, request: get, expect: 200 },
    'GET baseline': { url: urls.baseline, request: get, expect: 200 },
    'GET no limiter': { url: urls['no-limiter'], request: get, expect: 200 },
    // The same GETs from 16 addresses: their limiter objects are hit often enough to stay in
    // memory (workerd evicts an object about 10 s after its last request).
    'GET 16 clients': { url: urls.service, request: sixteen, expect: 200 },
    // The floor of one limiter RPC per request: the same Worker, its limiter object answering
    // from memory without storage (memory-limiter-worker.ts); cold objects, then warm ones.
    'GET no storage': { url: urls['no-storage'], request: get, expect: 200 },
    'GET no storage 16 clients': { url: urls['no-storage'], request: sixteen, expect: 200 },
    'GET streamed': { url: urls.service, request: getLarge, expect: 200 },
    'GET streamed baseline': { url: urls.baseline, request: getLarge, expect: 200 },
    HEAD: { url: urls.service, request: get, method: 'HEAD', expect: 200 },
    'HEAD baseline': { url: urls.baseline, request: get, method: 'HEAD', expect: 200 },
    'HEAD no limiter': { url: urls['no-limiter'], request: get, method: 'HEAD', expect: 200 },
    'HEAD no storage': { url: urls['no-storage'], request: get, method: 'HEAD', expect: 200 },
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
  // A limiter's storage work trails its requests by up to the flush interval (its writes, its
  // alarm): each run of a case served by a Worker with a limiter is followed by a pause of the
  // interval and a second, whose workerd CPU is charged to that case (run.mjs's `runLoad`), so
  // the work lands neither in the next case, which may be a baseline, nor nowhere.
  const limited = new Set(['service', 'limited', 'no-storage'].map((name) => urls[name]))
  const settleSeconds = config.flushSeconds + 1
  const load = (name, durationSeconds, settle = true) =>
    runLoad({
      url: loads[name].url,
      method: loads[name].method ?? 'GET',
      request: loads[name].request,
      connections: config.connections,
      durationSeconds,
      settleSeconds: settle && limited.has(loads[name].url) ? settleSeconds : 0,
    })
  for (const name of Object.keys(loads)) await load(name, config.warmupSeconds, false)
  // GET and its baselines interleave with each other, every other case with its baseline.
  const groups = [
    [
      'GET',
      'GET baseline',
      'GET no limiter',
      'GET 16 clients',
      'GET no storage',
      'GET no storage 16 clients',
    ],
    ['GET streamed', 'GET streamed baseline'],
    ['HEAD', 'HEAD baseline', 'HEAD no limiter', 'HEAD new client', 'HEAD no storage'],
    ['404', '404 baseline'],
    ['429', '429 baseline'],
    ['OPTIONS', 'OPTIONS baseline'],
  ]
  const runs = {}
  for (const group of groups) {
    // The GET and HEAD groups start once the trailing work of what ran before is done and every
    // object it touched is evicted; within them a case's runs come 15 s or more apart, so the
    // objects of their 1,024 addresses are cold in every run, the first included.
    if (group[0] === 'GET' || group[0] === 'HEAD') {
      const evicted = settleSeconds + IDLE_EVICTION_SECONDS + 1
      await new Promise((resolve) => setTimeout(resolve, evicted * 1000))
    }
    Object.assign(
      runs,
      await interleave(group, config.rounds, (name) => load(name, config.durationSeconds)),
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
      // The part of cpuMicros spent in the pause after the run (0 for cases without one).
      settleCpuMicros: median(list.map((run) => (run.settleCpuMs * 1000) / run.requests)),
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
      'GET 16 clients': ratio('GET 16 clients', 'GET baseline'),
      'GET 16 clients vs 1024': ratio('GET 16 clients', 'GET'),
      'GET no storage': ratio('GET no storage', 'GET baseline'),
      'GET no storage 16 clients': ratio('GET no storage 16 clients', 'GET baseline'),
      'HEAD no storage': ratio('HEAD no storage', 'HEAD baseline'),
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

/** The section's table rows: each request kind beside its baseline Worker. */
export function requestRows(r, config) {
  if (!r.http) return []
  const h = r.http.summary
  const rows = [
    row(
      'request',
      `GET ${r.http.fixture} (${kb(r.http.bytes)}), varied tags, ${config.http.clientIps} IPs (limiter objects cold)`,
      requestRate(h.GET),
      `KV pass-through: ${requestRate(h['GET baseline'])}`,
      r.http.ratios.GET,
      '>= 0.7x',
      cleanRuns(h, 'GET', 'GET baseline') ? verdict(r.http.ratios.GET >= 0.7) : 'FAIL',
    ),
    row(
      'request',
      `GET synthetic sparse export (${kb(r.http.streamedBytes)}, streamed), varied tags`,
      requestRate(h['GET streamed']),
      `KV pass-through: ${requestRate(h['GET streamed baseline'])}`,
      r.http.ratios['GET streamed'],
      '',
      cleanRuns(h, 'GET streamed', 'GET streamed baseline') ? '' : 'FAIL',
    ),
  ]
  // Each case beside its baseline; the `no storage` ones show what one limiter RPC per request
  // costs at the least, in the same run.
  for (const [name, what, baseline, label] of [
    ['HEAD', 'HEAD (same export)', 'HEAD baseline', 'KV metadata only'],
    ['404', 'GET unknown ID (404)', '404 baseline', 'KV miss, constant 404'],
    ['429', 'GET over the limit (429)', '429 baseline', 'constant 429'],
    ['OPTIONS', 'OPTIONS preflight (204)', 'OPTIONS baseline', 'constant 204'],
    [
      'GET no storage',
      'GET, limiter object without storage (the floor of one RPC), cold',
      'GET baseline',
      'KV pass-through',
    ],
    [
      'GET no storage 16 clients',
      'GET, limiter object without storage, 16 IPs (warm)',
      'GET baseline',
      'KV pass-through',
    ],
    [
      'HEAD no storage',
      'HEAD, limiter object without storage, cold',
      'HEAD baseline',
      'KV metadata only',
    ],
  ]) {
    const target = name === 'HEAD' ? '>= 0.7x' : ''
    const met = target ? verdict(r.http.ratios[name] >= 0.7) : ''
    rows.push(
      row(
        'request',
        what,
        requestRate(h[name]),
        `${label}: ${requestRate(h[baseline])}`,
        r.http.ratios[name],
        target,
        cleanRuns(h, name, baseline) ? met : 'FAIL',
      ),
    )
  }
  return rows
}
