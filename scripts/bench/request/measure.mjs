/**
 * The request section's timed runs: every case warmed up, then the groups' rounds interleaved,
 * then each case's medians and its ratio to its baseline (docs/performance.md). `runLoad` is the
 * dispatcher's, which records workerd's CPU time per run.
 */
import { interleave, median, pairedRatio } from '../lib/stats.mjs'
import { CASE_GROUPS, CASE_RATIOS, requestCases } from './cases.mjs'
import { getRequest, primeClients, publishAndCheck } from './prepare.mjs'

/** workerd evicts a Durable Object this long after its last request (about; 9.8 s is kept). */
const IDLE_EVICTION_SECONDS = 10
/** The Workers with a limiter, whose runs are followed by a pause charged to them. */
const LIMITED_WORKERS = ['service', 'limited', 'no-storage']

/** Request path: GET, HEAD, 404, 429 and OPTIONS against the service and its baselines. */
export async function requestPath({ urls, runLoad, cases, fixtures, tags, config, token }) {
  const { fixture, id, large, largeId } = await publishAndCheck({
    urls,
    cases,
    fixtures,
    config,
    token,
  })
  const get = getRequest({ id, tags, clientIps: config.clientIps })
  await primeClients({ urls, runLoad, config, id, get })
  const loads = requestCases({ urls, id, largeId, tags, clientIps: config.clientIps })
  const runs = await timedRuns({ urls, runLoad, config, loads })
  const ratio = ([a, b]) =>
    pairedRatio(
      runs[a].map((r) => r.rps),
      runs[b].map((r) => r.rps),
    )
  return {
    fixture: 'animated-80-displays',
    bytes: fixture.length,
    id,
    streamedBytes: large.length,
    summary: summarize(runs, loads),
    ratios: Object.fromEntries(Object.entries(CASE_RATIOS).map(([name, p]) => [name, ratio(p)])),
  }
}

/**
 * Each case warmed up once, then its rounds. A limiter's storage work trails its requests by up
 * to the flush interval (its writes, its alarm): each run of a case served by a Worker with a
 * limiter is followed by a pause of the interval and a second, whose workerd CPU is charged to
 * that case, so the work lands neither in the next case, which may be a baseline, nor nowhere.
 */
async function timedRuns({ urls, runLoad, config, loads }) {
  const limited = new Set(LIMITED_WORKERS.map((name) => urls[name]))
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
  const runs = {}
  for (const group of CASE_GROUPS) {
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
  return runs
}

/** Each case's medians over its rounds, and how many answers had a status it did not expect. */
function summarize(runs, loads) {
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
  return summary
}
