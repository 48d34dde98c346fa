/**
 * The `harvest` section: hours of harvesting export IDs, through the real Worker and its
 * Durable Objects in Miniflare (service.mjs), with simulated time. 600 live exports are
 * published through the editor API; each attacker guesses IDs uniformly, and what it is
 * answered (200, 404, 429, ...) comes from the service. README.md says what is real and what
 * is simulated; docs/performance.md and docs/security.md#harvesting read the rows (rows.mjs).
 *
 * Each run has a simulated period of its own (`RUN_SPACING_MS` apart, longer than the longest
 * penalty and its memory), so nothing of one run is still counted in the next.
 */
import { burst, guesser, missPacer, plugin, stream } from './actors.mjs'
import { ATTACKERS, BURST_SIZE, burstAddresses, scopesOf } from './attackers.mjs'
import { averagedSpanMs, missBudgets } from './bound.mjs'
import {
  BLOCKS,
  NETWORK_COUNTS,
  mixedBurstHour,
  otherStorageFailures,
  storageFailureCause,
} from './mixed-bursts.mjs'
import { pluginPatterns } from './plugin-patterns.mjs'
import { runActors } from './scheduler.mjs'
import { startService } from './service.mjs'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const ID_SPACE = 900_000
const LIVE_IDS = 600
const HIT_CHANCE = LIVE_IDS / ID_SPACE
/** The simulated clock's start: ahead of the real one, so workerd's own alarms never fire. */
const START = Date.UTC(2030, 0, 7, 12)
const RUN_SPACING_MS = 2 * DAY_MS
/** Runs the section has room for; exports live through all of them. */
const MAX_RUNS = 80
/** The exports' lifetime: through every run, so a live ID stays live (KV keeps it as long). */
const EXPORT_TTL_SECONDS = (MAX_RUNS * RUN_SPACING_MS) / 1000
/** A plugin server's requests an hour: 100 hits and 10 misses. */
const PLUGIN_PER_HOUR = 110
/**
 * How long a plugin server beside a harvester has been running when the harvester starts: a
 * server already serving its players, not one that first asks in the harvester's first second
 * (a stranger to a penalized network is refused, docs/rate-limits.md#clean-neighbours). Its
 * requests then are not counted.
 */
const BYSTANDER_WARMUP_MS = 10 * 60_000
/**
 * The overloading /48: requests at once, past what its object answers within the limiter's
 * timeout (2,400 at 8,000 calls a second: driver-worker.ts).
 */
const OVERLOAD_SIZE = 5_000
/**
 * `HARVEST_MIXED_ONLY=1`: only the plugin server's day and the mixed bursts, in the section's
 * order (to look into the mixed bursts without the 5 minutes of the other rows); its rows are
 * only theirs, so such a run is not one to `--save`.
 */
const MIXED_ONLY = process.env.HARVEST_MIXED_ONLY === '1'
/** A small export with placeholders (as the tests publish). */
const EXPORT_BODY =
  '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"],"cmd":"kill @e[tag=[MODELSERVERTAG]_0]"},"project_id":"p-1"}}'

/** Runs the section; returns plain figures (`harvestRows` turns them into rows). */
export async function harvestBench({ root, buildDir, log = () => {} }) {
  const start = () =>
    startService({
      root,
      buildDir,
      vars: { EXPORT_TTL_SECONDS: String(EXPORT_TTL_SECONDS) },
      log,
    })
  let service = await start()
  /** The figures of the services ended so far (`restart`). */
  const ended = []
  const started = performance.now()
  try {
    let live = await publishLive(service, log)
    let paths = pathsOf(live)
    /**
     * A new service (a new Miniflare, its storage empty) with its own live exports: a run's
     * objects and open files are its own, and the earlier service's workerd is gone before it.
     */
    const restart = async () => {
      ended.push({ ...service.stats, incidents: { ...service.incidents } })
      await service.dispose()
      log(`harvest: service ended, its workerd gone: ${service.files.leftAfterDispose === 0}`)
      service = await start()
      live = await publishLive(service, log)
      paths = pathsOf(live)
    }
    let runs = 0
    const nextStart = () => {
      if (runs === MAX_RUNS) throw new Error('harvest: more runs than the exports live through')
      return START + runs++ * RUN_SPACING_MS
    }
    const budgets = missBudgets(service.vars)
    const out = { idSpace: ID_SPACE, liveIds: LIVE_IDS, budgets, attackers: [], callers: {} }
    if (MIXED_ONLY) out.mixedOnly = true
    // First, while few objects exist: each of its idle gaps evicts and runs due alarms.
    log('harvest: a plugin server for a day')
    out.callers.plugin = await pluginDay(service, { start: nextStart(), paths })
    log(`harvest:   ${JSON.stringify(out.callers.plugin.statuses)}`)
    for (const attacker of MIXED_ONLY ? [] : ATTACKERS) {
      const strategies = ['greedy', 'paced', ...(attacker.bursts ? ['burst'] : [])]
      const results = []
      for (const strategy of strategies) {
        log(`harvest: ${attacker.what}, ${strategy}`)
        const run = async (units) => {
          const r = await attackHour(service, attacker, strategy, {
            units,
            start: nextStart(),
            paths,
            budgets,
          })
          log(`harvest:   ${units} ${attacker.unitName}s: ${brief(r)}`)
          return r
        }
        if (attacker.sample === null) results.push(await run(attacker.unitsTotal))
        else {
          const samples = []
          for (const units of attacker.sample) samples.push(await run(units))
          results.push(extrapolated(attacker, samples))
        }
      }
      const best = results.reduce((a, b) => (b.foundPerHour > a.foundPerHour ? b : a))
      out.attackers.push({
        label: attacker.label,
        what: attacker.what,
        networks: attacker.networks,
        best,
        runs: results,
      })
    }
    if (!MIXED_ONLY) {
      log('harvest: a /48 keeping its own object overloaded')
      out.overload = await overloadHour(service, { start: nextStart(), paths })
      log(`harvest:   ${brief(out.overload)}, ${JSON.stringify(out.overload.withoutVerdict)}`)
    }
    out.mixedBursts = []
    for (const block of BLOCKS) {
      let firstNetwork = 0
      for (const networks of NETWORK_COUNTS) {
        log(`harvest: ${block.what(networks)}, mixed bursts`)
        await restart()
        const r = await mixedBurstHour(service, {
          block,
          networks,
          firstNetwork,
          start: nextStart(),
          live: live.slice(2),
          budgets,
          hour: {
            runActors,
            bystander: (address, start) => bystanderActor(address, start, paths),
            liveFraction: HIT_CHANCE,
            durationMs: HOUR_MS,
          },
        })
        firstNetwork += networks
        log(`harvest:   ${mixedBrief(r)}`)
        log(`harvest:   workerd's open files: ${JSON.stringify(r.files)}`)
        const { unsettled, firstUnsettled } = r.storageFailureLog
        if (unsettled > 0) {
          log(
            `harvest:   ${unsettled} unsettled-lookup 503s (misses), the first: ${firstUnsettled}`,
          )
        }
        if (otherStorageFailures(r) > 0) {
          log(`harvest:   FAIL: ${otherStorageFailures(r)} storage 503s: ${storageFailureCause(r)}`)
          for (const kept of r.storageFailureLog.kept) log(`harvest:     ${JSON.stringify(kept)}`)
        }
        out.mixedBursts.push(r)
      }
    }
    if (!MIXED_ONLY) {
      out.patterns = await pluginPatterns(service, { nextStart, live, runActors, log })
      log('harvest: a server retrying an expired ID')
      out.callers.retrier = await retrier(service, {
        start: START + EXPORT_TTL_SECONDS * 1000 + DAY_MS,
        path: paths.expired,
      })
      log(`harvest:   refused for ${out.callers.retrier.refusedSeconds} s`)
    }
    out.service = added([...ended, { ...service.stats, incidents: service.incidents }])
    out.seconds = (performance.now() - started) / 1000
    return out
  } finally {
    await service.dispose()
  }
}

/** Publishes the live exports through the editor API; answers their IDs. */
async function publishLive(service, log) {
  const live = []
  while (live.length < LIVE_IDS) {
    live.push(...(await service.publish(START - 600_000, 50, EXPORT_BODY)))
  }
  log(`harvest: ${live.length} live exports published`)
  return live
}

/** The paths the attackers' hours and the plugin servers ask for. */
function pathsOf(live) {
  return {
    hit: `/server-api?id=${live[0]}`,
    miss: '/server-api?id=999999',
    expired: `/server-api?id=${live[1]}`,
  }
}

/** The figures of several services (`stats` and `incidents`) added up. */
function added(services) {
  const sum = { incidents: {} }
  for (const { incidents, ...stats } of services) {
    for (const [k, v] of Object.entries(stats)) sum[k] = (sum[k] ?? 0) + v
    for (const [k, v] of Object.entries(incidents)) sum.incidents[k] = (sum.incidents[k] ?? 0) + v
  }
  return sum
}

/** One attacker's hour with `strategy` over `units` of its units (all, or a spread sample). */
async function attackHour(service, attacker, strategy, { units, start, paths, budgets }) {
  const guess = guesser(0x5eed + units)
  const ids = Array.from({ length: units }, (_, i) => attacker.unit(i, units))
  const pacer =
    strategy === 'paced'
      ? missPacer(
          ['client', 'prefix', 'wide']
            .filter((name) => budgets[name] !== null)
            .map((name) => ({ name, keyOf: (a) => scopesOf(a)[name], ...budgets[name] })),
        )
      : null
  const actors =
    strategy === 'burst'
      ? [burst({ addresses: burstAddresses(), size: BURST_SIZE, start, guess })]
      : ids.flatMap((u) =>
          attacker.streams(u).map((addresses) => stream({ addresses, start, guess, pacer })),
        )
  const bystander =
    attacker.bystander === undefined ? null : bystanderActor(attacker.bystander, start, paths)
  const { realSeconds } = await runActors(
    service,
    bystander === null ? actors : [...actors, bystander],
    { start, durationMs: HOUR_MS },
  )
  // One address of each network the attacker holds (a /48, a /24, a bot's /24).
  const networks = ids.map((u) => attacker.streams(u)[0][0])
  const coveredMs = averagedSpanMs(actors, start, HOUR_MS, await service.penaltyUntil(networks))
  return {
    strategy,
    units,
    ...summed(actors, coveredMs),
    realSeconds,
    ...(bystander === null
      ? {}
      : { bystander: { address: attacker.bystander, ...bystander.figures } }),
  }
}

/** One run's figures in a line, for the progress log. */
function brief(r) {
  return (
    `${r.foundPerHour.toFixed(2)} live IDs/hour over ${(r.coveredMs / HOUR_MS).toFixed(1)} h, ` +
    `${r.answered} of ${r.requests} answered ` +
    `(${JSON.stringify(r.statuses)}), ${r.realSeconds.toFixed(0)} s` +
    (r.bystander === undefined ? '' : `; plugin beside: ${JSON.stringify(r.bystander.statuses)}`)
  )
}

/** A mixed-burst run's figures in a line, for the progress log. */
function mixedBrief(r) {
  const share = (t) => `${t.refused} of ${t.requests} refused`
  return (
    `${Math.round(r.settledPerHour)} settled/hour (${r.livePerHour.toFixed(2)} live) over ` +
    `${(r.spanMs / HOUR_MS).toFixed(1)} h, ` +
    `live IDs ${share(r.live)}, guesses ${share(r.guesses)} (${JSON.stringify(r.guesses.statuses)}), ` +
    `z ${r.z.pooled.toFixed(1)} pooled, ${r.z.within.toFixed(1)} within, ` +
    `${r.bursts} network bursts, ${r.realSeconds.toFixed(0)} s; ` +
    `plugin beside: ${JSON.stringify(r.bystander.statuses)}`
  )
}

/**
 * The figures of `actors` added up, and the live IDs an hour their answers find on average over
 * `coveredMs` (the hour and the penalty it led to: bound.mjs).
 */
function summed(actors, coveredMs) {
  const sum = { requests: 0, answered: 0, found: 0, refused: 0, other: 0, statuses: {} }
  for (const { figures } of actors) {
    for (const k of ['requests', 'answered', 'found', 'refused', 'other']) sum[k] += figures[k]
    for (const [s, n] of Object.entries(figures.statuses))
      sum.statuses[s] = (sum.statuses[s] ?? 0) + n
  }
  return { ...sum, coveredMs, foundPerHour: (sum.answered * HIT_CHANCE * HOUR_MS) / coveredMs }
}

/**
 * An attacker too big to run whole, from samples of increasing numbers of units: the biggest
 * sample's figure, plus each further unit at the marginal yield (the least-squares slope of the
 * figure over the samples' sizes, 0 if negative). An upper bound as long as a unit added never
 * finds more than the sampled ones did on average; the samples' own run-to-run spread is
 * multiplied by the units left, so the figure is a bound, not an estimate.
 */
function extrapolated(attacker, samples) {
  const xs = samples.map((r) => r.units)
  const ys = samples.map((r) => r.foundPerHour)
  const mx = xs.reduce((a, b) => a + b) / xs.length
  const my = ys.reduce((a, b) => a + b) / ys.length
  const slope =
    xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) /
    xs.reduce((a, x) => a + (x - mx) ** 2, 0)
  const big = samples.at(-1)
  return {
    strategy: big.strategy,
    units: attacker.unitsTotal,
    samples,
    answered: big.answered,
    requests: big.requests,
    found: big.found,
    coveredMs: big.coveredMs,
    foundPerHour: big.foundPerHour + Math.max(0, slope) * (attacker.unitsTotal - big.units),
    extrapolatedFrom: `${xs.join(', ')} of ${attacker.unitsTotal.toLocaleString('en-US')} ${attacker.unitName}s`,
  }
}

/** A /48 sending `OVERLOAD_SIZE` requests at once whenever a probe is answered (actors.mjs). */
async function overloadHour(service, { start, paths }) {
  const guess = guesser(0x10ad)
  const attacker = burst({ addresses: burstAddresses(), size: OVERLOAD_SIZE, start, guess })
  const bystander = bystanderActor('2001:db8:0:ffff::10', start, paths)
  const before = { ...service.incidents }
  const { realSeconds } = await runActors(service, [attacker, bystander], {
    start,
    durationMs: HOUR_MS,
  })
  const penaltyUntil = await service.penaltyUntil([burstAddresses()[0]])
  const coveredMs = averagedSpanMs([attacker], start, HOUR_MS, penaltyUntil)
  const since = (incident) => (service.incidents[incident] ?? 0) - (before[incident] ?? 0)
  // Requests the limiter gave no verdict on in time: served (fail-open) or refused (closed).
  const withoutVerdict = {
    served: since('limiter_failed_open'),
    refused: since('limiter_failed_closed'),
  }
  return {
    size: OVERLOAD_SIZE,
    bursts: attacker.figures.bursts,
    ...summed([attacker], coveredMs),
    withoutVerdict,
    realSeconds,
    bystander: bystander.figures,
  }
}

/** A plugin server's requests from `start` for `hours`, evenly spread. */
function pluginActor(address, start, hours, paths) {
  const n = PLUGIN_PER_HOUR * hours
  const times = Array.from(
    { length: n },
    (_, i) => start + Math.floor((i * HOUR_MS) / PLUGIN_PER_HOUR) + 7,
  )
  return plugin({ address, times, hitPath: paths.hit, missPath: paths.miss })
}

/**
 * A plugin server beside an attacker: running since `BYSTANDER_WARMUP_MS` before `start` at the
 * same rate, counted for the hour from `start`.
 */
function bystanderActor(address, start, paths) {
  const every = HOUR_MS / PLUGIN_PER_HOUR
  const from = start - Math.floor(BYSTANDER_WARMUP_MS / every) * every
  const n = Math.round((start + HOUR_MS - from) / every)
  const times = Array.from({ length: n }, (_, i) => Math.floor(from + i * every) + 7)
  return plugin({ address, times, hitPath: paths.hit, missPath: paths.miss, countFrom: start })
}

/** A plugin server alone for a day: 100 hits and 10 misses an hour. */
async function pluginDay(service, { start, paths }) {
  const actor = pluginActor('203.0.113.10', start, 24, paths)
  await runActors(service, [actor], { start, durationMs: DAY_MS })
  return { ...actor.figures, hours: 24 }
}

/**
 * A server retrying an expired ID once a second for a minute, then asking once a second until
 * admitted: how long it was refused.
 */
async function retrier(service, { start, path }) {
  const address = '203.0.113.20'
  let firstRefusedAt = null
  let refused = 0
  const statuses = {}
  for (let s = 0; s < 2 * 86_400; s++) {
    const now = start + s * 1000
    const [[status]] = await service.step(now, [[address, path]])
    statuses[status] = (statuses[status] ?? 0) + 1
    if (status === 429 || status === 503) {
      refused++
      firstRefusedAt ??= now
      continue
    }
    if (s >= 60) {
      return {
        refused,
        refusedSeconds: firstRefusedAt === null ? 0 : (now - firstRefusedAt) / 1000,
        statuses,
      }
    }
  }
  return { refused, refusedSeconds: Infinity, statuses }
}
