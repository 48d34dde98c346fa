/**
 * Who sends requests in the harvest simulation, each an actor the scheduler (simulate.mjs) asks
 * at its `due` time for the requests it sends at that instant, and then tells their answers:
 * - `stream`: one request at a time, from its addresses in turn, as fast as answered
 *   (`REQUEST_MS`); a refusal makes it wait for its `Retry-After`. With a pacer it also stops
 *   at each miss budget it knows of, one short, until that window ends.
 * - `burst`: `size` requests at once from as many addresses, then probes (one request) until
 *   one is answered, then the next burst;
 * - `plugin`: a plugin server's requests at fixed times, hits and misses, counting refusals.
 * Guesses are uniform over the ID space; an answer is a found ID when it is 200.
 */

/** How long one request of a stream takes (a round trip), in ms of simulated time. */
export const REQUEST_MS = 100
/** How long after an answered burst the next is sent, in ms of simulated time. */
export const BURST_GAP_MS = 1_000

const FIRST_ID = 100_000
const ID_SPACE = 900_000

/** The answer kinds: `hit` (200), `miss` (404, 410), `refused` (429, 503), `other`. */
export function kindOf(status) {
  if (status === 200) return 'hit'
  if (status === 404 || status === 410) return 'miss'
  if (status === 429 || status === 503) return 'refused'
  return 'other'
}

/** A counter of what an actor was answered. */
function tally() {
  return { requests: 0, answered: 0, found: 0, refused: 0, other: 0, statuses: {} }
}

function count(t, status) {
  t.requests++
  t.statuses[status] = (t.statuses[status] ?? 0) + 1
  const kind = kindOf(status)
  if (kind === 'hit') {
    t.answered++
    t.found++
  } else if (kind === 'miss') t.answered++
  else if (kind === 'refused') t.refused++
  else t.other++
  return kind
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same draws every run. */
export function seededRandom(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Random six-digit IDs from a seeded generator: the same guesses every run. */
export function guesser(seed) {
  const random = seededRandom(seed)
  return () => `/server-api?id=${FIRST_ID + Math.floor(random() * ID_SPACE)}`
}

/** A sequential stream over `addresses` (cycled), from `start`; `pacer` optional. */
export function stream({ addresses, start, guess, pacer = null }) {
  const figures = tally()
  let next = 0
  let address = null
  return {
    figures,
    due: start,
    requests(now) {
      address = addresses[next++ % addresses.length]
      const wait = pacer?.waitUntil(address, now) ?? now
      if (wait > now) {
        next--
        this.due = wait
        return []
      }
      pacer?.sent(address, now)
      return [[address, guess()]]
    },
    answered(now, [[status, retryAfter]]) {
      const kind = count(figures, status)
      if (kind !== 'miss') pacer?.notMissed(address, now)
      this.due = now + (kind === 'refused' ? Math.max(retryAfter * 1000, REQUEST_MS) : REQUEST_MS)
    },
  }
}

/**
 * `size` requests at once from consecutive addresses (cycled), from `start`. After each burst,
 * a single request (a probe) says whether the next burst would be answered: a second later if
 * some of the burst was, else when its first refusal ends; a refused probe is sent again when
 * its refusal ends. A burst refused whole would teach nothing a probe does not.
 */
export function burst({ addresses, size, start, guess }) {
  const figures = { ...tally(), bursts: 0 }
  let next = 0
  let probing = false
  const retryAtOf = (now, refusals) =>
    refusals.length === 0 ? now + BURST_GAP_MS : now + Math.max(1, Math.min(...refusals)) * 1000
  return {
    figures,
    due: start,
    requests() {
      const n = probing ? 1 : size
      if (!probing) figures.bursts++
      return Array.from({ length: n }, () => [addresses[next++ % addresses.length], guess()])
    },
    answered(now, answers) {
      let answered = false
      const refusals = []
      for (const [status, retryAfter] of answers) {
        const kind = count(figures, status)
        if (kind === 'hit' || kind === 'miss') answered = true
        if (kind === 'refused') refusals.push(retryAfter)
      }
      // After a burst, a probe; a probe answered is followed by a burst, a refused one by a
      // probe when its refusal ends.
      const wasProbe = probing
      this.due = answered ? now + BURST_GAP_MS : retryAtOf(now, refusals)
      probing = !(wasProbe && answered)
    },
  }
}

/**
 * A plugin server at `address`: one request at each of `times`, every 11th for an ID that is
 * not there (`missPath`), the others for a live export (`hitPath`). Answers before `countFrom`
 * are not counted (a server already running when the measured hour starts).
 */
export function plugin({ address, times, hitPath, missPath, countFrom = -Infinity }) {
  const figures = tally()
  let n = 0
  return {
    figures,
    due: times[0],
    requests() {
      return [[address, n % 11 === 10 ? missPath : hitPath]]
    },
    answered(now, [[status]]) {
      if (now >= countFrom) count(figures, status)
      n++
      this.due = n < times.length ? times[n] : null
    },
  }
}

/**
 * What an attacker that knows the miss budgets keeps to: per scope (`keyOf` an address, e.g. its
 * client key or its /24), at most `budget - 1` misses in a window that starts at its first miss.
 * A request counts as a miss from when it is sent (most are), and is taken back if it was not
 * one, so the requests in flight of all its streams together stay under the budget too.
 */
export function missPacer(scopes) {
  const windows = new Map()
  const current = (key, now) => {
    const w = windows.get(key)
    return w !== undefined && now < w.endsAt ? w : null
  }
  return {
    waitUntil(address, now) {
      let until = now
      for (const s of scopes) {
        const w = current(`${s.name} ${s.keyOf(address)}`, now)
        if (w !== null && w.count >= s.budget - 1) until = Math.max(until, w.endsAt)
      }
      return until
    },
    sent(address, now) {
      for (const s of scopes) {
        const key = `${s.name} ${s.keyOf(address)}`
        const w = current(key, now) ?? { count: 0, endsAt: now + s.windowSeconds * 1000 }
        w.count++
        windows.set(key, w)
      }
    },
    notMissed(address, now) {
      for (const s of scopes) {
        const w = current(`${s.name} ${s.keyOf(address)}`, now)
        if (w !== null) w.count--
      }
    },
  }
}
