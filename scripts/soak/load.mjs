/**
 * The soak's load: simulated clients reading published, unknown and invalid IDs around their
 * limits, and a publisher whose every export is read at once, where KV lags, as a far location
 * would. Each answer goes to the oracle (quota.mjs) as it comes back; each client keeps what it
 * was admitted for the quota check at the end.
 */
import { readFileSync } from 'node:fs'
import { EDITOR_EXPORTS_PATH, SERVER_API_PATH } from '../../src/contract/routes.ts'
import { largeExport, PLACEHOLDER } from '../../test/support/large-export.ts'
import { send } from './http.mjs'
import { RETRY_AFTER, checkBody, checkRefusal, rateLimitWindows } from './quota.mjs'

/** A hard cap on requests, whatever the duration: the loop is bounded in count and time. */
const MAX_REQUESTS = 2_000_000
/** Requests without an answer after which the soak gives up: the service is down. */
const MAX_UNANSWERED = 50
/** Share of clients that send far above their quota all the time, and of requests they send. */
const HOT_SHARE = 0.02
const HOT_TRAFFIC = 0.5
/** The small export the clients read. */
export const EXPORT = JSON.stringify({
  content: {
    // Data no plugin runs (an export holds no other member of its own): placeholders are
    // substituted there as anywhere else.
    meta: { Tags: [`${PLACEHOLDER}_root`], cmd: `kill @e[tag=${PLACEHOLDER}_0]` },
    project_id: 'soak',
  },
})
const root = new URL('../..', import.meta.url)
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

/**
 * The soak's running state: `options`, `violations`, request `stats`, the `fresh` reads (of a
 * publish at once: how many, how many found it not ready or with other bytes), and the client
 * whose burst is under way (`turn`).
 */
export function newSoak(options, violations) {
  return {
    options,
    violations,
    stats: { requests: 0, statuses: {}, publishes: 0, unlimited: 0, refusals: 0 },
    fresh: { reads: 0, notReady: 0, mismatched: 0, large: 0 },
    turn: { at: 0, left: 0 },
  }
}

/** Simulated clients: IPv4 addresses, and IPv6 /64s that use a new address for each request. */
export function makeClients(count) {
  return Array.from({ length: count }, (_, i) => ({
    name: i % 5 === 4 ? `2001:db8:${i.toString(16)}:0::/64` : `198.18.${i >> 8}.${i & 255}`,
    address: i % 5 === 4 ? () => `2001:db8:${i.toString(16)}:0:${randomGroups(4)}` : null,
    admitted: [],
  }))
}

function randomGroups(n) {
  return Array.from({ length: n }, () => Math.floor(Math.random() * 0x10000).toString(16)).join(':')
}

export async function requestLoop(soak, base, agent, clients, published, deadline) {
  while (running(soak, deadline)) {
    soak.stats.requests++
    await readOnce(soak, base, agent, nextClient(soak, clients), published)
  }
}

/**
 * Half the requests go to the few hot clients; the others take turns in bursts of half to
 * twice the short limit, so each sends around its quota, and comes back windows later.
 */
function nextClient({ options, turn }, clients) {
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
async function readOnce(soak, base, agent, client, published) {
  const { stats, violations } = soak
  const oracle = { rules: soak.options.rules, violations }
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
    return violations.add('no answer', `${method} ${path} from ${ip}: ${error.message}`)
  }
  const received = performance.now()
  stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1
  const where = `${method} ${path} from ${ip}`
  if (res.status >= 500) return violations.add('5xx', `${where}: ${res.status} ${res.body}`)
  if (res.status === 429) {
    stats.refusals++
    return checkRefusal(res, method, where, oracle)
  }
  const allowed = live ? [200] : /^[0-9]{6}$/.test(id) ? [200, 404, 410] : [400]
  if (!allowed.includes(res.status)) violations.add('unexpected status', `${where}: ${res.status}`)
  if (res.status === 200 && method === 'GET') checkBody(res, tag, where, oracle)
  const windows = rateLimitWindows(res, where, true, oracle)
  if (windows === null) {
    stats.unlimited++
    return violations.add('served without a limit (limiter failed open)', where)
  }
  for (const w of windows) client.admitted.push({ ...w, sent, received })
}

/**
 * Publishes in turn the small export (which the other loops then read), the fixtures and now
 * and then a large one; reads each at once.
 */
export async function publishLoop(soak, base, token, agent, published, deadline) {
  const { stats, violations } = soak
  for (let n = 0; running(soak, deadline); n++, await sleep(soak.options.publishEvery)) {
    const document =
      n % LARGE_EVERY === 4 ? largeExport('soak-large') : FRESH_EXPORTS[n % FRESH_EXPORTS.length]
    let res
    try {
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      res = await send(base, agent, 'POST', EDITOR_EXPORTS_PATH, headers, document)
    } catch (error) {
      violations.add('no answer', `publish: ${error.message}`)
      continue
    }
    stats.publishes++
    if (res.status !== 201) {
      violations.add(
        res.status >= 500 ? '5xx' : 'publish refused',
        `publish: ${res.status} ${res.body}`,
      )
      continue
    }
    const { id } = JSON.parse(res.body)
    await readFresh(soak, base, agent, id, document)
    if (document === EXPORT) published.push(id)
  }
}

/**
 * GET and HEAD of a just-published ID from a new address (so no quota refuses them), where KV
 * lags: each must be a 200 with exactly the document's bytes, the tag substituted.
 */
async function readFresh({ fresh, violations }, base, agent, id, document) {
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
      violations.add('no answer', `${method} ${path} at once: ${error.message}`)
      continue
    }
    const where = `${method} ${path} right after its publish`
    if (res.status === 503 && res.headers[RETRY_AFTER] === '5') {
      fresh.notReady++
      violations.add('not ready right after publishing', `${where}: ${res.body}`)
    } else if (res.status !== 200) {
      violations.add(res.status >= 500 ? '5xx' : 'unexpected status', `${where}: ${res.status}`)
    } else if (
      Number(res.headers['content-length']) !== expected.length ||
      (method === 'GET' && !res.raw.equals(expected))
    ) {
      fresh.mismatched++
      violations.add('other bytes right after publishing', `${where}: ${res.bytes} bytes`)
    }
  }
}

/** Load goes on until the deadline, the request cap, or a service that stopped answering. */
function running({ stats, violations }, deadline) {
  return (
    performance.now() < deadline &&
    stats.requests < MAX_REQUESTS &&
    violations.count('no answer') < MAX_UNANSWERED
  )
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
