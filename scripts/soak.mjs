#!/usr/bin/env node
// `npm run soak [-- --duration 60 --ips 500 --concurrency 32 --json]`: a bounded soak of the
// service on loopback. GETs and HEADs from many simulated client addresses (CF-Connecting-IP,
// which reaches the Worker unchanged in local dev) around their limits, publishes in between.
// From the responses alone it checks that no client was admitted beyond its quota in any window,
// that every 429 carried the right Retry-After, and that nothing answered 5xx. Every publish is
// read at once (GET and HEAD) as a far location would, with KV lagging behind
// (SIMULATED_KV_LAG_SECONDS): each must be a 200 with the exact bytes, never 503 not_ready.
// It starts the service itself (`npm start`, fresh state, small limits, the lag) unless --url
// names a running one.
// Prints a summary; exits 1 on any violation, 2 on bad usage. No dependencies: Node 22 only.
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { parseArgs } from 'node:util'
import { startLocalService } from './local-service.mjs'
import { EDITOR_EXPORTS_PATH, SERVER_API_PATH } from '../src/contract/routes.ts'
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../src/contract/wire.ts'

const USAGE = `Usage: npm run soak -- [options]

Options:
  --duration S        seconds of load (default 60, at most 600)
  --ips N             simulated client addresses (default 500)
  --concurrency N     requests in flight at once (default 32)
  --short Q/W         short window, requests/seconds (default 20/10)
  --long Q/W          long window, requests/seconds (default 30/30)
  --publish-every MS  one publish every MS milliseconds (default 250)
  --kv-lag S          seconds KV takes to show a publish to the started service
                      (SIMULATED_KV_LAG_SECONDS, default 30)
  --url URL           soak a service already running on loopback (its limits must be the
                      ones given here) instead of starting one
  --token T           editor API token of --url (default dev-publish-token)
  --json              print the summary as JSON
  -h, --help          show this help`

const MAX_DURATION_SECONDS = 600
/** A hard cap on requests, whatever the duration: the loop is bounded in count and time. */
const MAX_REQUESTS = 2_000_000
const REQUEST_TIMEOUT_MS = 10_000
/** The contract's headers as Node's `http` gives their names: in lower case. */
const RETRY_AFTER = RETRY_AFTER_HEADER.toLowerCase()
const RATE_LIMIT = Object.fromEntries(
  Object.entries(RATE_LIMIT_HEADERS).map(([key, name]) => [key, name.toLowerCase()]),
)
/** Requests without an answer after which the soak gives up: the service is down. */
const MAX_UNANSWERED = 50
/** Share of clients that send far above their quota all the time, and of requests they send. */
const HOT_SHARE = 0.02
const HOT_TRAFFIC = 0.5
const PLACEHOLDER = '[MODELSERVERTAG]'
const EXPORT = JSON.stringify({
  content: {
    Tags: [`${PLACEHOLDER}_root`],
    cmd: `kill @e[tag=${PLACEHOLDER}_0]`,
    project_id: 'soak',
  },
})
const SOAK_TOKEN = 'soak-publish-token'
const root = new URL('..', import.meta.url)
/** What the fresh reads publish in turn: the small export, the real fixtures, one over 1 MiB. */
const FRESH_EXPORTS = [
  EXPORT,
  ...['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays'].map((name) =>
    readFileSync(new URL(`fixtures/${name}.json`, root), 'utf8'),
  ),
]
/**
 * One publish in this many, from the fifth on (so even a short soak has one), is of an export
 * over 1 MiB, whose copy is streamed in chunks.
 */
const LARGE_EVERY = 20

const options = readOptions()
const violations = new Map()
const stats = { requests: 0, statuses: {}, publishes: 0, unlimited: 0, refusals: 0 }
/** Reads of a publish at once, and how many found it not ready or with other bytes. */
const fresh = { reads: 0, notReady: 0, mismatched: 0, large: 0 }
/** The client whose burst is under way, and how many requests of it are left. */
const turn = { at: 0, left: 0 }

await main()

async function main() {
  const service = options.url ? null : await startService()
  const base = options.url ?? service.url
  const token = options.url ? options.token : SOAK_TOKEN
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency + 1 })
  const clients = makeClients(options.ips)
  const published = []
  const started = performance.now()
  const deadline = started + options.duration * 1000
  try {
    await Promise.all([
      publishLoop(base, token, agent, published, deadline),
      ...Array.from({ length: options.concurrency }, () =>
        requestLoop(base, agent, clients, published, deadline),
      ),
    ])
  } finally {
    agent.destroy()
    await service?.stop()
  }
  const seconds = (performance.now() - started) / 1000
  for (const client of clients) checkQuota(client)
  report(summary(clients, seconds))
  process.exit(violations.size > 0 ? 1 : 0)
}

// ---- Load ----

/** Simulated clients: IPv4 addresses, and IPv6 /64s that use a new address for each request. */
function makeClients(count) {
  return Array.from({ length: count }, (_, i) => ({
    name: i % 5 === 4 ? `2001:db8:${i.toString(16)}:0::/64` : `198.18.${i >> 8}.${i & 255}`,
    address: i % 5 === 4 ? () => `2001:db8:${i.toString(16)}:0:${randomGroups(4)}` : null,
    admitted: [],
  }))
}

function randomGroups(n) {
  return Array.from({ length: n }, () => Math.floor(Math.random() * 0x10000).toString(16)).join(':')
}

async function requestLoop(base, agent, clients, published, deadline) {
  while (running(deadline)) {
    stats.requests++
    await readOnce(base, agent, nextClient(clients), published)
  }
}

/**
 * Half the requests go to the few hot clients; the others take turns in bursts of half to
 * twice the short limit, so each sends around its quota, and comes back windows later.
 */
function nextClient(clients) {
  const hot = Math.max(1, Math.round(clients.length * HOT_SHARE))
  if (hot === clients.length || Math.random() < HOT_TRAFFIC) {
    return clients[Math.floor(Math.random() * hot)]
  }
  if (turn.left <= 0) {
    turn.at = Math.max(hot, (turn.at + 1) % clients.length)
    const limit = options.rules[0].limit
    turn.left = Math.ceil(limit / 2 + Math.random() * limit * 1.5)
  }
  turn.left--
  return clients[turn.at]
}

/** One GET or HEAD of a published, unknown or invalid ID, checked as it comes back. */
async function readOnce(base, agent, client, published) {
  const roll = Math.random()
  const live = published.length > 0 && roll < 0.6
  const id = live
    ? published[Math.floor(Math.random() * published.length)]
    : roll < 0.85
      ? String(100_000 + Math.floor(Math.random() * 900_000))
      : ['12', 'abcdef', '١٢٣٤٥٦', '+12345'][Math.floor(Math.random() * 4)]
  const tag = `t${Math.floor(Math.random() * 1000)}`
  const method = Math.random() < 0.1 ? 'HEAD' : 'GET'
  const ip = client.address ? client.address() : client.name
  const path = `${SERVER_API_PATH}?id=${encodeURIComponent(id)}&tag=${tag}`
  const sent = performance.now()
  let res
  try {
    res = await send(base, agent, method, path, { 'CF-Connecting-IP': ip })
  } catch (error) {
    return violation('no answer', `${method} ${path} from ${ip}: ${error.message}`)
  }
  const received = performance.now()
  stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1
  const where = `${method} ${path} from ${ip}`
  if (res.status >= 500) return violation('5xx', `${where}: ${res.status} ${res.body}`)
  if (res.status === 429) return checkRefusal(res, method, where)
  const allowed = live ? [200] : /^[0-9]{6}$/.test(id) ? [200, 404, 410] : [400]
  if (!allowed.includes(res.status)) violation('unexpected status', `${where}: ${res.status}`)
  if (res.status === 200 && method === 'GET') checkBody(res, tag, where)
  const windows = rateLimitWindows(res, where, true)
  if (windows === null) {
    stats.unlimited++
    return violation('served without a limit (limiter failed open)', where)
  }
  for (const w of windows) client.admitted.push({ ...w, sent, received })
}

/**
 * Publishes in turn the small export (which the other loops then read), the fixtures and now
 * and then a large one; reads each at once.
 */
async function publishLoop(base, token, agent, published, deadline) {
  for (let n = 0; running(deadline); n++, await sleep(options.publishEvery)) {
    const document = n % LARGE_EVERY === 4 ? largeExport() : FRESH_EXPORTS[n % FRESH_EXPORTS.length]
    let res
    try {
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      res = await send(base, agent, 'POST', EDITOR_EXPORTS_PATH, headers, document)
    } catch (error) {
      violation('no answer', `publish: ${error.message}`)
      continue
    }
    stats.publishes++
    if (res.status !== 201) {
      violation(res.status >= 500 ? '5xx' : 'publish refused', `publish: ${res.status} ${res.body}`)
      continue
    }
    const { id } = JSON.parse(res.body)
    await readFresh(base, agent, id, document)
    if (document === EXPORT) published.push(id)
  }
}

/**
 * GET and HEAD of a just-published ID from a new address (so no quota refuses them), where KV
 * lags: each must be a 200 with exactly the document's bytes, the tag substituted.
 */
async function readFresh(base, agent, id, document) {
  const tag = `fresh${fresh.reads}`
  const expected = Buffer.from(document.replaceAll(PLACEHOLDER, tag))
  const n = fresh.reads++
  const headers = {
    'CF-Connecting-IP': `100.${64 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`,
  }
  const path = `${SERVER_API_PATH}?id=${id}&tag=${tag}`
  if (expected.length > 1024 * 1024) fresh.large++
  for (const method of ['GET', 'HEAD']) {
    let res
    try {
      res = await send(base, agent, method, path, headers)
    } catch (error) {
      violation('no answer', `${method} ${path} at once: ${error.message}`)
      continue
    }
    const where = `${method} ${path} right after its publish`
    if (res.status === 503 && res.headers[RETRY_AFTER] === '5') {
      fresh.notReady++
      violation('not ready right after publishing', `${where}: ${res.body}`)
    } else if (res.status !== 200) {
      violation(res.status >= 500 ? '5xx' : 'unexpected status', `${where}: ${res.status}`)
    } else if (
      Number(res.headers['content-length']) !== expected.length ||
      (method === 'GET' && !res.raw.equals(expected))
    ) {
      fresh.mismatched++
      violation('other bytes right after publishing', `${where}: ${res.bytes} bytes`)
    }
  }
}

/** A synthetic export over 1 MiB: keyframe commands with a placeholder in each. */
function largeExport() {
  const commands = Array.from(
    { length: 16_000 },
    (_, i) =>
      `"data merge entity @e[type=item_display,tag=${PLACEHOLDER}_${i % 300},limit=1] {view_range:${i}f}"`,
  )
  // One display carries every tag the commands target: a display model, which publishing accepts.
  const tags = Array.from({ length: 300 }, (_, i) => `\\"${PLACEHOLDER}_${i}\\"`).join(',')
  const passengers = `"{id:\\"minecraft:item_display\\",Tags:[${tags}]}"`
  return `{"content":{"commands":[${commands.join(',')}],"passengers":[${passengers}],"project_id":"soak-large"}}`
}

/** Load goes on until the deadline, the request cap, or a service that stopped answering. */
function running(deadline) {
  const unanswered = violations.get('no answer')?.count ?? 0
  return (
    performance.now() < deadline && stats.requests < MAX_REQUESTS && unanswered < MAX_UNANSWERED
  )
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** One request; resolves with status, headers and body text. */
function send(base, agent, method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, agent, headers }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('error', reject)
      res.on('aborted', () => reject(new Error('transfer aborted')))
      res.on('end', () => {
        const text = Buffer.concat(chunks)
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: text.toString(),
          raw: text,
          bytes: text.length,
        })
      })
    })
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(body)
  })
}

// ---- Checks ----

function violation(kind, detail) {
  const entry = violations.get(kind) ?? { count: 0, examples: [] }
  entry.count++
  if (entry.examples.length < 5) entry.examples.push(detail)
  violations.set(kind, entry)
}

/** The windows of the RateLimit header, checked against the policy and the X-RateLimit trio. */
function rateLimitWindows(res, where, admitted) {
  const state = res.headers[RATE_LIMIT.state]
  if (state === undefined) return null
  const policy = res.headers[RATE_LIMIT.policy]
  const expected = options.rules.map((r) => `"${r.name}";q=${r.limit};w=${r.period}`).join(', ')
  if (policy !== expected) violation('wrong policy', `${where}: ${policy}`)
  const windows = state.split(', ').map((item) => {
    const m = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(item)
    const rule = m && options.rules.find((r) => r.name === m[1])
    if (!rule) return violation(`unreadable ${RATE_LIMIT_HEADERS.state}`, `${where}: ${state}`)
    return { name: m[1], limit: rule.limit, period: rule.period, r: Number(m[2]), t: Number(m[3]) }
  })
  if (windows.some((w) => w === undefined)) return []
  for (const w of windows) {
    if (w.t < 1 || w.t > w.period || w.r > w.limit || (admitted && w.r === w.limit)) {
      violation('window out of range', `${where}: ${state}`)
    }
  }
  const shown = windows.reduce((a, b) => (b.r < a.r || (b.r === a.r && b.t > a.t) ? b : a))
  const trio = [
    res.headers[RATE_LIMIT.limit],
    res.headers[RATE_LIMIT.remaining],
    res.headers[RATE_LIMIT.reset],
  ]
  if (trio.join('/') !== `${shown.limit}/${shown.r}/${shown.t}`) {
    violation(
      `${RATE_LIMIT_HEADERS.limit}/Remaining/Reset disagree with ${RATE_LIMIT_HEADERS.state}`,
      `${where}: ${trio.join('/')} vs ${state}`,
    )
  }
  return windows
}

/** A 429: Retry-After equal to the body's, at least 1, the wait of the window that refused. */
function checkRefusal(res, method, where) {
  stats.refusals++
  const retryAfter = Number(res.headers[RETRY_AFTER])
  const windows = rateLimitWindows(res, where, false) ?? []
  const refusing = windows.filter((w) => w.r === 0)
  const wait = Math.max(1, ...refusing.map((w) => w.t))
  const longest = Math.max(0, ...refusing.map((w) => w.period))
  if (
    !Number.isInteger(retryAfter) ||
    retryAfter < 1 ||
    retryAfter > longest ||
    retryAfter !== wait
  ) {
    violation(
      `wrong ${RETRY_AFTER_HEADER}`,
      `${where}: ${RETRY_AFTER_HEADER} ${res.headers[RETRY_AFTER]}, ${res.headers[RATE_LIMIT.state]}`,
    )
  }
  if (method === 'HEAD') return
  try {
    const body = JSON.parse(res.body)
    if (body.error?.retryAfterSeconds !== retryAfter)
      throw new Error(`differs from ${RETRY_AFTER_HEADER}`)
  } catch (error) {
    violation('wrong 429 body', `${where}: ${error.message}: ${res.body}`)
  }
}

function checkBody(res, tag, where) {
  if (Number(res.headers['content-length']) !== res.bytes) {
    violation('wrong Content-Length', `${where}: ${res.headers['content-length']} vs ${res.bytes}`)
  }
  try {
    const body = JSON.parse(res.body)
    if (body.content.Tags[0] !== `${tag}_root` || res.body.includes(PLACEHOLDER)) {
      throw new Error(`tag ${tag} not substituted`)
    }
  } catch (error) {
    violation('wrong body', `${where}: ${error.message}`)
  }
}

/**
 * Per client and window: admitted responses grouped into window instances by the reset they
 * report (resets of two instances are at least a period apart). In one instance the remaining
 * counts must all differ (no slot given twice) and there must be at most `limit` admissions.
 * Independently of the headers: any limit*2+1 admissions must span more than one period.
 */
function checkQuota(client) {
  for (const rule of options.rules) {
    const seen = client.admitted
      .filter((a) => a.name === rule.name)
      .map((a) => ({ ...a, lo: a.sent + (a.t - 1) * 1000, hi: a.received + a.t * 1000 }))
      .sort((a, b) => a.lo - b.lo)
    let instance = null
    const instances = []
    for (const a of seen) {
      if (instance === null || a.lo > instance.hi) {
        instance = { hi: a.hi, remaining: new Set(), count: 0 }
        instances.push(instance)
      }
      instance.hi = Math.max(instance.hi, a.hi)
      instance.count++
      if (instance.remaining.has(a.r)) {
        violation('slot given twice', `${client.name} ${rule.name}: remaining=${a.r} seen twice`)
      }
      instance.remaining.add(a.r)
      // The first admission of a window sees all of its period ahead.
      if (a.r === rule.limit - 1 && a.t !== rule.period) {
        violation('window shorter than its period', `${client.name} ${rule.name}: t=${a.t}`)
      }
    }
    for (const inst of instances) {
      if (inst.count > rule.limit) {
        violation(
          'admitted beyond quota',
          `${client.name} ${rule.name}: ${inst.count} > ${rule.limit}`,
        )
      }
    }
    client[`${rule.name}Instances`] = instances.length
    client[`${rule.name}Most`] = Math.max(0, ...instances.map((i) => i.count))
    const bySent = [...seen].sort((a, b) => a.sent - b.sent)
    const run = rule.limit * 2 + 1
    for (let i = 0; i + run <= bySent.length; i++) {
      const group = bySent.slice(i, i + run)
      const span = Math.max(...group.map((a) => a.received)) - group[0].sent
      if (span <= rule.period * 1000) {
        violation(
          'admitted beyond quota',
          `${client.name} ${rule.name}: ${run} in ${Math.round(span)} ms`,
        )
        break
      }
    }
  }
}

// ---- Report ----

function summary(clients, seconds) {
  const most = (key) => Math.max(0, ...clients.map((c) => c[key] ?? 0))
  return {
    seconds: Math.round(seconds * 10) / 10,
    clients: clients.length,
    concurrency: options.concurrency,
    limits: { short: options.short, long: options.long },
    requests: stats.requests,
    rps: Math.round(stats.requests / seconds),
    statuses: stats.statuses,
    refusals: stats.refusals,
    publishes: stats.publishes,
    kvLagSeconds: options.url ? null : options.kvLag,
    freshReads: fresh,
    servedUnlimited: stats.unlimited,
    mostAdmittedInOneWindow: { short: most('shortMost'), long: most('longMost') },
    mostWindowsOfOneClient: { short: most('shortInstances'), long: most('longInstances') },
    violations: Object.fromEntries(violations),
  }
}

function report(s) {
  if (options.json) return console.log(JSON.stringify(s))
  console.log(
    `soak: ${s.requests} requests in ${s.seconds} s (${s.rps} req/s), ${s.publishes} publishes`,
  )
  console.log(
    `  ${s.clients} clients, concurrency ${s.concurrency}, limits short ${s.limits.short} long ${s.limits.long}`,
  )
  console.log(
    `  statuses: ${Object.entries(s.statuses)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}`,
  )
  const f = s.freshReads
  console.log(
    `  read at once after publishing (KV lag ${s.kvLagSeconds ?? 'of --url'} s): ${f.reads} publishes (${f.large} over 1 MiB), GET and HEAD each; not ready ${f.notReady}, other bytes ${f.mismatched}`,
  )
  console.log(
    `  most admitted in one window: short ${s.mostAdmittedInOneWindow.short}, long ${s.mostAdmittedInOneWindow.long}`,
  )
  console.log(
    `  most windows of one client: short ${s.mostWindowsOfOneClient.short}, long ${s.mostWindowsOfOneClient.long}`,
  )
  console.log(`  violations: ${violations.size === 0 ? 'none' : ''}`)
  for (const [kind, { count, examples }] of violations) {
    console.log(`    ${kind}: ${count}`)
    for (const example of examples) console.log(`      ${example}`)
  }
}

// ---- Options and the service ----

function readOptions() {
  let parsed
  try {
    parsed = parseArgs({
      options: {
        duration: { type: 'string', default: '60' },
        ips: { type: 'string', default: '500' },
        concurrency: { type: 'string', default: '32' },
        short: { type: 'string', default: '20/10' },
        long: { type: 'string', default: '30/30' },
        'publish-every': { type: 'string', default: '250' },
        'kv-lag': { type: 'string', default: '30' },
        url: { type: 'string' },
        token: { type: 'string', default: 'dev-publish-token' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values
  } catch (error) {
    usage(error.message)
  }
  if (parsed.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const whole = (name, max) => {
    const n = Number(parsed[name])
    if (!Number.isInteger(n) || n < 1 || n > max) usage(`--${name} must be a whole number 1-${max}`)
    return n
  }
  const rule = (name) => {
    const m = /^(\d+)\/(\d+)$/.exec(parsed[name])
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) usage(`--${name} must look like 20/10`)
    return { name, limit: Number(m[1]), period: Number(m[2]) }
  }
  if (parsed.url && !isLoopback(parsed.url)) usage('--url must be a loopback address')
  return {
    duration: whole('duration', MAX_DURATION_SECONDS),
    ips: whole('ips', 65_536),
    concurrency: whole('concurrency', 1024),
    publishEvery: whole('publish-every', 60_000),
    kvLag: whole('kv-lag', 600),
    short: parsed.short,
    long: parsed.long,
    rules: [rule('short'), rule('long')],
    url: parsed.url?.replace(/\/+$/, ''),
    token: parsed.token,
    json: parsed.json,
  }
}

function usage(message) {
  console.error(`${message}\n\n${USAGE}`)
  process.exit(2)
}

/** Traffic goes to this machine only. */
function isLoopback(url) {
  try {
    const host = new URL(url).hostname
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
  } catch {
    return false
  }
}

/** `npm start` on a free loopback port with fresh state and the soak's limits. */
async function startService() {
  let service
  try {
    service = await startLocalService(
      {
        PUBLISH_TOKEN: SOAK_TOKEN,
        RATE_LIMIT_SHORT: options.short,
        RATE_LIMIT_LONG: options.long,
        // The soak checks the request windows from the headers, and most of its requests miss:
        // the miss limit would refuse them for its own reasons (tested on its own, in
        // test/rate-limit/rate-limit-misses-http.test.ts).
        RATE_LIMIT_MISSES: 'off',
        SIMULATED_KV_LAG_SECONDS: String(options.kvLag),
      },
      { statePrefix: 'export-service-soak-' },
    )
  } catch (error) {
    console.error(`the service did not start: ${error.message}`)
    process.exit(1)
  }
  const stop = () => service.stop()
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => void stop().then(() => process.exit(130)))
  }
  return { url: service.url, stop }
}
