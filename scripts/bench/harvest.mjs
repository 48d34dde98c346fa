/**
 * The `harvest` section: an hour of harvesting export IDs, simulated in Node against the
 * service's own admission code (harvest-policy.ts, bundled from src/) with simulated time. No
 * Worker runs: what is measured is how many live IDs each attacker finds, which only the
 * policy decides. docs/performance.md and docs/security.md#harvesting read the rows.
 *
 * The ID space holds `LIVE_IDS` live exports of `ID_SPACE` at any time (one publish a second,
 * each live ten minutes), so an answered guess finds one with probability LIVE_IDS / ID_SPACE.
 * Each attacker sends from all its addresses at once, each address as fast as it is admitted
 * (a request takes `REQUEST_MS` of its time), and tries the strategies below, keeping the best:
 * - `greedy`: every address sends until refused, then waits for the refusal's Retry-After;
 * - `paced`, `paced-1`: knowing the miss limit's settings, every client key and every prefix
 *   stops at its miss budget (or one under it) and waits for its window to end.
 * The second rows are legitimate callers: a plugin server, and one retrying an expired ID.
 */
import { row, verdict } from './lib/rows.mjs'

const ID_SPACE = 900_000
const LIVE_IDS = 600
const HIT_CHANCE = LIVE_IDS / ID_SPACE
const HOUR_MS = 3_600_000
/** The simulated clock's start: any fixed time. */
const START = Date.UTC(2026, 0, 5, 12)
/** How long one request takes its address: requests of one address never share an instant. */
const REQUEST_MS = 1
/** A plugin server's requests an hour: 100 hits and 10 misses. */
const PLUGIN_PER_HOUR = 110
/** Live IDs an hour the /48 and the four /24s may find at most. */
const FOUND_TARGET = 10

const ATTACKERS = [
  {
    label: 'ipv6-48',
    what: 'an IPv6 /48 holder (65,536 /64s)',
    count: 65_536,
    address: (i) => `2001:db8:4800:${i.toString(16)}::1`,
    target: FOUND_TARGET,
  },
  {
    label: 'ipv4-4x24',
    what: '1,000 IPv4 addresses in four /24s',
    count: 1_000,
    address: (i) => `198.51.${100 + (i % 4)}.${1 + Math.floor(i / 4)}`,
    target: FOUND_TARGET,
    // A plugin server of another customer in one of the attacker's /24s.
    bystander: '198.51.100.251',
  },
  {
    label: 'botnet',
    what: '10,000 IPv4 addresses in 10,000 /24s (a botnet)',
    count: 10_000,
    address: (i) => `10.${i >> 8}.${i & 255}.7`,
    target: null,
  },
]

/**
 * Runs the section: `policies.today()` and `policies.service()` are fresh policies (a policy
 * keeps state). Returns plain figures; `harvestRows` turns them into rows.
 */
export function harvestSimulation(policies, log = () => {}) {
  const service = policies.service()
  const sameAsToday = service.misses === null
  const out = { idSpace: ID_SPACE, liveIds: LIVE_IDS, attackers: [], callers: {} }
  out.policy = { today: policies.today().name, service: service.name, misses: service.misses }
  for (const attacker of ATTACKERS) {
    log(`harvest: ${attacker.what}`)
    const addresses = Array.from({ length: attacker.count }, (_, i) => attacker.address(i))
    const { bystander } = attacker
    const today = harvest(policies.today(), addresses, 'greedy', bystander)
    const runs = sameAsToday
      ? [today]
      : ['greedy', 'paced', 'paced-1'].map((s) =>
          harvest(policies.service(), addresses, s, bystander),
        )
    const best = runs.reduce((a, b) => (b.expectedFound > a.expectedFound ? b : a))
    out.attackers.push({
      label: attacker.label,
      what: attacker.what,
      target: attacker.target,
      today,
      runs,
      best,
    })
  }
  for (const [name, make] of Object.entries(policies)) {
    out.callers[name] = { plugin: pluginServer(make()), retrier: retrier(make()) }
  }
  return out
}

/**
 * One attacker's hour under `policy` with `strategy`. With a `bystander` address, a plugin server
 * beside the attacker makes its 110 requests of the hour (`PLUGIN_PER_HOUR`, every 11th a miss),
 * evenly spread, and its refusals are counted.
 */
function harvest(policy, addresses, strategy, bystander) {
  const random = mulberry32(0x5eed)
  const pacer = strategy === 'greedy' ? null : missPacer(policy, strategy === 'paced-1' ? 1 : 0)
  const queue = new MinHeap()
  addresses.forEach((_, i) => queue.push(START, i))
  const end = START + HOUR_MS
  const figures = { strategy, requests: 0, answered: 0, refused: 0, found: 0 }
  if (bystander !== undefined) {
    figures.bystander = { address: bystander, requests: PLUGIN_PER_HOUR, refused: 0 }
    for (let n = 0; n < PLUGIN_PER_HOUR; n++) {
      queue.push(START + Math.floor((n * HOUR_MS) / PLUGIN_PER_HOUR), addresses.length + n)
    }
  }
  const started = performance.now()
  while (queue.size > 0 && queue.peekTime() < end) {
    const [at, i] = queue.pop()
    if (i >= addresses.length) {
      const n = i - addresses.length
      if (!policy.admit(bystander, at).admitted) figures.bystander.refused++
      else policy.answered(bystander, at, n % 11 === 10)
      continue
    }
    const address = addresses[i]
    for (let now = at; now < end; now += REQUEST_MS) {
      const wait = pacer?.waitUntil(address, now) ?? now
      if (wait > now) {
        queue.push(wait, i)
        break
      }
      figures.requests++
      const admission = policy.admit(address, now)
      if (!admission.admitted) {
        figures.refused++
        queue.push(Math.max(admission.retryAt, now + REQUEST_MS), i)
        break
      }
      figures.answered++
      const hit = random() < HIT_CHANCE
      if (hit) figures.found++
      else pacer?.missed(address, now)
      policy.answered(address, now, !hit)
    }
  }
  figures.expectedFound = figures.answered * HIT_CHANCE
  figures.simulationSeconds = (performance.now() - started) / 1000
  return figures
}

/**
 * What an attacker that knows the miss limit's settings keeps to: per client key and per prefix,
 * at most `budget - margin` misses in a window that starts at its first miss.
 */
function missPacer(policy, margin) {
  const s = policy.misses
  const windows = new Map()
  const scopes = (address) => {
    const { client, prefix } = policy.keysOf(address)
    return [
      [`c:${client}`, s.clientBudget - margin, s.clientWindowSeconds * 1000],
      [`p:${prefix}`, s.prefixBudget - margin, s.prefixWindowSeconds * 1000],
    ]
  }
  const current = (key, now) => {
    const w = windows.get(key)
    return w !== undefined && now < w.endsAt ? w : null
  }
  return {
    waitUntil(address, now) {
      let until = now
      for (const [key, budget] of scopes(address)) {
        const w = current(key, now)
        if (w !== null && w.count >= budget) until = Math.max(until, w.endsAt)
      }
      return until
    },
    missed(address, now) {
      for (const [key, , windowMs] of scopes(address)) {
        const w = current(key, now) ?? { count: 0, endsAt: now + windowMs }
        w.count++
        windows.set(key, w)
      }
    },
  }
}

/** A plugin server: 100 hits and 10 misses an hour, evenly spread, for a day. */
function pluginServer(policy) {
  const address = '203.0.113.10'
  const perHour = PLUGIN_PER_HOUR
  const hours = 24
  let refused = 0
  for (let n = 0; n < perHour * hours; n++) {
    const now = START + Math.floor((n * HOUR_MS) / perHour)
    if (!policy.admit(address, now).admitted) refused++
    else policy.answered(address, now, n % 11 === 10)
  }
  return { requests: perHour * hours, refused, hours }
}

/**
 * A plugin server retrying an expired ID once a second for a minute (each answered one a miss),
 * then asking once a second for a live one until admitted: how long it was refused.
 */
function retrier(policy) {
  const address = '203.0.113.20'
  let firstRefusedAt = null
  let refused = 0
  for (let s = 0; s < 2 * 86_400; s++) {
    const now = START + s * 1000
    const admitted = policy.admit(address, now).admitted
    if (!admitted) {
      refused++
      firstRefusedAt ??= now
      continue
    }
    if (s >= 60) {
      const refusedSeconds = firstRefusedAt === null ? 0 : (now - firstRefusedAt) / 1000
      return { refused, refusedSeconds }
    }
    policy.answered(address, now, s < 60)
  }
  return { refused, refusedSeconds: Infinity }
}

/** The section's rows: each attacker beside today's figure, then the legitimate callers. */
export function harvestRows(r) {
  const h = r.harvest
  if (!h) return []
  const found = (f) =>
    `${f.expectedFound.toFixed(2)} live IDs/hour (${f.answered.toLocaleString('en-US')} of ` +
    `${f.requests.toLocaleString('en-US')} requests answered, ${f.found} found in this draw; ${f.strategy})`
  const rows = h.attackers.map((a) =>
    row(
      'harvest',
      `live IDs found in an hour, ${a.what}, ${h.liveIds} live of ${h.idSpace.toLocaleString('en-US')}`,
      found(a.best),
      `today (request windows only): ${a.today.expectedFound.toFixed(0)} live IDs/hour`,
      a.best.expectedFound / a.today.expectedFound,
      a.target === null ? 'reported as it is' : `<= ${a.target}/hour`,
      a.target === null ? '' : verdict(a.best.expectedFound <= a.target),
    ),
  )
  for (const a of h.attackers) {
    const b = a.best.bystander
    if (b === undefined) continue
    rows.push(
      row(
        'harvest',
        `a plugin server (100 hits, 10 misses an hour) at ${b.address}, beside ${a.what} ` +
          `harvesting (${a.best.strategy})`,
        `${b.refused} of ${b.requests} requests refused`,
        `today: ${a.today.bystander.refused} refused`,
        (b.requests - b.refused) / (a.today.bystander.requests - a.today.bystander.refused),
      ),
    )
  }
  const { today, service } = h.callers
  const first = h.policy.misses?.firstPenaltySeconds
  rows.push(
    row(
      'harvest',
      `a plugin server making 100 hits and 10 misses an hour, for ${service.plugin.hours} hours`,
      `${service.plugin.refused} of ${service.plugin.requests.toLocaleString('en-US')} requests refused`,
      `today: ${today.plugin.refused} refused`,
      (service.plugin.requests - service.plugin.refused) /
        (today.plugin.requests - today.plugin.refused),
      'never refused',
      verdict(service.plugin.refused === 0),
    ),
    row(
      'harvest',
      'a plugin server retrying an expired ID once a second for a minute, then asking once a second',
      `refused for ${service.retrier.refusedSeconds} s (${service.retrier.refused} requests); ` +
        (first === undefined ? 'no miss limit' : `first penalty ${first} s`),
      `today: refused for ${today.retrier.refusedSeconds} s`,
      first ? service.retrier.refusedSeconds / first : 0,
      first === undefined ? '' : `<= ${first} s (first penalty)`,
      first === undefined ? '' : verdict(service.retrier.refusedSeconds <= first),
    ),
  )
  return rows
}

/** A small seeded generator (mulberry32): the same draws in every run. */
function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A binary min-heap of (time, index) pairs. */
class MinHeap {
  #times = []
  #items = []
  get size() {
    return this.#times.length
  }
  peekTime() {
    return this.#times[0]
  }
  push(time, item) {
    const t = this.#times
    const v = this.#items
    let i = t.length
    t.push(time)
    v.push(item)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (t[parent] <= time) break
      t[i] = t[parent]
      v[i] = v[parent]
      i = parent
    }
    t[i] = time
    v[i] = item
  }
  pop() {
    const t = this.#times
    const v = this.#items
    const top = [t[0], v[0]]
    const lastTime = t.pop()
    const lastItem = v.pop()
    if (t.length > 0) {
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        if (left >= t.length) break
        const child = left + 1 < t.length && t[left + 1] < t[left] ? left + 1 : left
        if (t[child] >= lastTime) break
        t[i] = t[child]
        v[i] = v[child]
        i = child
      }
      t[i] = lastTime
      v[i] = lastItem
    }
    return top
  }
}
