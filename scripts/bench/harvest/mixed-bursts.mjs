/**
 * Attackers holding K networks of one wide block (IPv4 /24s of one /16, IPv6 /48s of one /32),
 * sending bursts that mix IDs they know are live with guesses, all K networks in one step (one
 * `Promise.all` in the driver): whether any refusal depends on the ID being live, and how many
 * IDs an hour the answers settle (bound.mjs), beside a plugin server in another network of the
 * same block.
 *
 * The live IDs stand for the live ones among a harvester's guesses (1 in 1,500, too few to
 * measure a refusal rate on): if they are refused at another rate than the guesses, a refused
 * guess is as good as a `404`.
 */
import { guesser, kindOf, seededRandom } from './actors.mjs'
import { sixtyFoursOf } from './attackers.mjs'
import { averagedSpanMs, harvestBound, settledIds } from './bound.mjs'

/** The networks each attacker holds, in runs of an hour each. */
export const NETWORK_COUNTS = [1, 4, 12, 32]
/**
 * Requests each network sends in a burst: its network's miss budget and more (the prefix
 * budget is 300 an hour), all at once.
 */
export const NETWORK_BURST = 320
/**
 * One request in this many of a burst is for a live ID, at places drawn anew for each burst
 * (seeded): at fixed places, which client sends a live ID, and through which isolate, repeated
 * from burst to burst, and a refusal that follows a client's history (its misses, the isolate
 * that saw them) looked like one that follows the ID.
 */
export const LIVE_EVERY = 5
/**
 * The addresses each network sends from (IPv4 addresses of its /24, /64s of its /48), in turn:
 * 5 requests each in a burst, 15 in an hour's three bursts, under a client's miss budget (30 an
 * hour), while the network's clients together could miss 1,920 times an hour against its budget
 * of 300: the network level holds the bursts. Not more: each is a Durable Object of its own, in
 * Miniflare a SQLite database with about three files open, and the process may hold 20,000 (32
 * networks of 254 addresses needed about 23,600, and new clients' requests got storage `503`s).
 */
export const ADDRESSES_PER_NETWORK = 64
/**
 * Between two bursts of a network, in ms of simulated time: three an hour at most. The first
 * burst and the refusals' leak decide what an hour settles (a network's budget lasts the hour);
 * more bursts would only cost the bench's run time.
 */
export const BURST_GAP_MS = 1_200_000
/** The smallest burst: a few live IDs among the guesses, to see whether refusals differ. */
const LEAST_BURST = 2 * LIVE_EVERY

/**
 * The /48 index (in 2001:db8::/32) of the mixed bursts' first /48: past every /48 the attackers
 * of the first rows use (the /44's 0-15, the /40's samples up to 240, the /32's multiples of 4,096).
 */
const FIRST_48 = 0x1001

/**
 * The two wide blocks: network `n`'s addresses, and a plugin server in a network of its own.
 * Each run takes networks no earlier run of the section used (`firstNetwork`), so that no run's
 * figures depend on what an earlier one left in the objects (lapsed records, an alarm the bench
 * dropped between runs: README.md#mixed-bursts-what-a-refusal-tells).
 */
export const BLOCKS = [
  {
    label: 'ipv4-16',
    what: (k) => `${k} /24${k === 1 ? '' : 's'} of one IPv4 /16`,
    addresses: (n) =>
      Array.from({ length: ADDRESSES_PER_NETWORK }, (_, h) => `100.80.${n}.${1 + h}`),
    bystander: '100.80.200.10',
  },
  {
    label: 'ipv6-32',
    what: (k) => `${k} /48${k === 1 ? '' : 's'} of one IPv6 /32`,
    addresses: (n) => sixtyFoursOf(FIRST_48 + n).slice(0, ADDRESSES_PER_NETWORK),
    bystander: '2001:db8:ffff:1::10',
  },
]

/**
 * A tally of what one kind of request (live, guess) was answered: `statuses` by status and, for
 * an error, its `code` (`404 not_found`, `429 rate_limited`). A `503`'s `code` is `unavailable`
 * whether storage or the limiter failed, so its `Retry-After` is kept too: 1 s for storage, 5 s
 * for the limiter (src/http/errors.ts).
 */
const tally = () => ({ requests: 0, answered: 0, refused: 0, statuses: {} })

/** Storage's `503` (src/http/errors.ts): `Retry-After` 1 s, where the limiter's is 5 s. */
const isStorageFailure = (status, retryAfter) => status === 503 && retryAfter === 1

/**
 * What an answer tells the attacker. A guess's storage `503` settles its ID as a `404` does: in a
 * run whose row does not fail (`otherStorageFailures`), each is the read path's unsettled lookup,
 * which only an ID KV does not hold gets, and which the limiter counts as a miss.
 */
const answerKind = (status, retryAfter, live) =>
  !live && isStorageFailure(status, retryAfter) ? 'miss' : kindOf(status)

/** The storage `503`s a run's service logged that were not unsettled lookups: its row fails. */
export const otherStorageFailures = (m) =>
  m.storageFailureLog === undefined
    ? (m.storageFailures ?? 0)
    : m.storageFailureLog.count - (m.storageFailureLog.unsettled ?? 0)

function count(t, status, code, retryAfter, live) {
  t.requests++
  const coded = code === '' ? String(status) : `${status} ${code}`
  const key = status === 503 ? `${coded} (Retry-After ${retryAfter})` : coded
  t.statuses[key] = (t.statuses[key] ?? 0) + 1
  const kind = answerKind(status, retryAfter, live)
  if (kind === 'hit' || kind === 'miss') t.answered++
  else if (kind === 'refused') t.refused++
}

/** `count` of the places `0 .. size - 1`, drawn with `random`. */
function places(size, count, random) {
  const all = Array.from({ length: size }, (_, i) => i)
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (size - i))
    ;[all[i], all[j]] = [all[j], all[i]]
  }
  return new Set(all.slice(0, count))
}

/**
 * One network's part: bursts at once from `addresses` in turn, one request in `LIVE_EVERY` for a
 * live ID (at places drawn with `random`), `BURST_GAP_MS` apart (or when the shortest `Retry-After` ends, if the whole burst was
 * refused). The first burst is `NETWORK_BURST`; then, as an attacker that reads its answers
 * would: the whole `NETWORK_BURST` while refusals leak (the attack's figures so far, all its
 * networks), else twice what the last burst got answered, at least `LEAST_BURST`.
 */
function networkAttacker({ addresses, livePaths, guess, random, start, figures }) {
  let next = 0
  let size = NETWORK_BURST
  let sent = []
  return {
    figures,
    due: start,
    requests() {
      figures.bursts++
      const live = places(size, Math.ceil(size / LIVE_EVERY), random)
      sent = Array.from({ length: size }, (_, i) => ({
        live: live.has(i),
        address: addresses[next++ % addresses.length],
      }))
      return sent.map(({ live, address }, i) => [
        address,
        live ? livePaths[(next + i) % livePaths.length] : guess(),
      ])
    },
    answered(now, answers) {
      let answered = 0
      let retryAfter = Infinity
      answers.forEach(([status, wait, code], i) => {
        const { live, address } = sent[i]
        count(live ? figures.live : figures.guesses, status, code, wait, live)
        const key = `${now} ${address}`
        if (!figures.strata.has(key)) figures.strata.set(key, { live: tally(), guesses: tally() })
        count(figures.strata.get(key)[live ? 'live' : 'guesses'], status, code, wait, live)
        if (isStorageFailure(status, wait)) figures.storageFailures++
        if (status === 200 && !live) figures.found++
        const kind = answerKind(status, wait, live)
        if (kind === 'hit' || kind === 'miss') answered++
        if (kind === 'refused') retryAfter = Math.min(retryAfter, Math.max(1, wait))
      })
      const { leak } = settledIds({ ...figures, strata: figures.strata.values() })
      size = leak ? NETWORK_BURST : Math.min(NETWORK_BURST, Math.max(LEAST_BURST, 2 * answered))
      this.due = now + (answered > 0 ? BURST_GAP_MS : Math.max(BURST_GAP_MS, retryAfter * 1000))
    },
  }
}

/**
 * What a run's storage failures came from, in a line: the first one's cause as the service logged
 * it (its request line's `cause`), the lines workerd printed beside it that are not the service's,
 * and the open files of the run's workerd at its peak, against its limit.
 */
export function storageFailureCause(r) {
  const first = r.storageFailureLog?.kept[0]
  const parts = []
  if (first !== undefined) {
    let cause
    try {
      cause = JSON.parse(first.line).cause
    } catch {
      cause = { message: first.line.slice(0, 200) }
    }
    const chain = []
    for (let c = cause; c !== undefined && chain.length < 3; c = c.cause) {
      chain.push(c.name === undefined ? c.message : `${c.name}: ${c.message}`)
    }
    parts.push(`logged cause: ${chain.join(' <- ') || 'none'}`)
    const beside = [...first.before, ...first.after].filter((l) => !l.includes('"event":'))
    if (beside.length > 0) parts.push(`workerd beside it: ${beside[0].slice(0, 160)}`)
  } else parts.push('no log line kept')
  const f = r.files
  if (f !== undefined) {
    const limit = f.limit === null ? '?' : f.limit.toLocaleString('en-US')
    parts.push(`workerd's files open at most ${f.peak.toLocaleString('en-US')} of ${limit}`)
  }
  return parts.join('; ')
}

/**
 * An hour of `networks` networks of `block` bursting together from `start`, with a plugin
 * server (`bystander(address, start)`, counted for the hour) in another network of the block.
 */
export async function mixedBurstHour(
  service,
  { block, networks, firstNetwork, start, live, budgets, hour },
) {
  const { runActors, bystander: bystanderOf, liveFraction, durationMs } = hour
  const figures = {
    bursts: 0,
    found: 0,
    live: tally(),
    guesses: tally(),
    strata: new Map(),
    storageFailures: 0,
  }
  const guess = guesser(0xb0257 + networks)
  const livePaths = live.map((id) => `/server-api?id=${id}`)
  const attackers = Array.from({ length: networks }, (_, n) =>
    networkAttacker({
      addresses: block.addresses(firstNetwork + n),
      livePaths,
      guess,
      random: seededRandom(0x11fe0000 + networks * 1000 + n),
      start,
      figures,
    }),
  )
  const bystander = bystanderOf(block.bystander, start)
  const { realSeconds } = await runActors(service, [...attackers, bystander], {
    start,
    durationMs,
  })
  const { leak, z, settled } = settledIds({ ...figures, strata: figures.strata.values() })
  const heads = Array.from({ length: networks }, (_, n) => block.addresses(firstNetwork + n)[0])
  const spanMs = averagedSpanMs(attackers, start, durationMs, await service.penaltyUntil(heads))
  const perHour = 3_600_000 / spanMs
  await service.settleLogs()
  return {
    block: block.label,
    what: block.what(networks),
    networks,
    bursts: figures.bursts,
    live: figures.live,
    guesses: figures.guesses,
    found: figures.found,
    leak,
    z,
    addressesPerNetwork: ADDRESSES_PER_NETWORK,
    storageFailures: figures.storageFailures,
    // The run has a service of its own: its storage failures' log lines and open files are the run's.
    storageFailureLog: service.failures,
    files: service.files,
    spanMs,
    settledPerHour: settled * perHour,
    livePerHour: settled * perHour * liveFraction,
    bound: harvestBound({ networks, budgets, liveFraction }),
    realSeconds,
    bystander: { address: block.bystander, ...bystander.figures },
  }
}
