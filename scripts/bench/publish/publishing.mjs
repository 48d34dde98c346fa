/**
 * The publish section: publishes per second over HTTP against a KV put of the same bytes, and
 * against the same service with `EXPORT_POLICY=off` (what the display-model check costs).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { interleave, median, pairedRatio, times } from '../lib/stats.mjs'
import { cleanRuns, kb, ms, row } from '../lib/rows.mjs'
import { EDITOR_EXPORTS_PATH } from '../../../src/contract/routes.ts'

/**
 * Publishes per second and workerd's CPU per publish over HTTP, against storing the same bytes
 * in KV directly and against the service without the display-model check. The three take the
 * same warm-up, `warmupRounds` rounds as measured but untimed; then `pieceRounds` rounds of
 * `piece` publishes to each, in turns whose order rotates every round: a piece lasts a few tenths
 * of a second, so a burst of load from the machine's other tenants falls on neighbouring pieces of
 * every case rather than on one case's run. A ratio is the median of the rounds' ratios: the warm-up
 * is what the check's code needs to be optimized (its first publishes cost twice the later ones),
 * and the rounds what a piece's 10 ms steps of /proc CPU need to average out.
 */
export async function publishing({ urls, runLoad, fixtures, config, token }) {
  const { fixture: name, connections, piece, pieceRounds, warmupRounds } = config
  const body = readFileSync(join(fixtures, `${name}.json`))
  const headers = { 'Content-Type': 'application/json' }
  const loads = {
    publish: {
      url: urls.service,
      path: EDITOR_EXPORTS_PATH,
      headers: { ...headers, Authorization: `Bearer ${token}` },
      expect: 201,
    },
    'KV put baseline': { url: urls.baseline, path: '/kv-put', headers, expect: 201 },
    'EXPORT_POLICY=off': {
      url: urls['policy-off'],
      path: EDITOR_EXPORTS_PATH,
      headers: { ...headers, Authorization: `Bearer ${token}` },
      expect: 201,
    },
  }
  const names = Object.keys(loads)
  const load = (name) =>
    runLoad({
      url: loads[name].url,
      method: 'POST',
      connections,
      amount: piece,
      request: () => ({ path: loads[name].path, headers: loads[name].headers, body }),
    })
  await interleave(names, warmupRounds, load)
  const runs = await interleave(names, pieceRounds, load)
  const summary = {}
  for (const [name, list] of Object.entries(runs)) {
    const requests = list.reduce((sum, r) => sum + r.requests, 0)
    const cpuMs = list.reduce((sum, r) => sum + r.serverCpuMs, 0)
    const wrong = list.reduce(
      (sum, r) => sum + r.requests - (r.statuses[loads[name].expect] ?? 0) + r.errors,
      0,
    )
    summary[name] = {
      rps: median(list.map((r) => r.rps)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      // Over all rounds: a piece's CPU is read from /proc in 10 ms steps, a tenth of a piece's.
      cpuMicros: (cpuMs * 1000) / requests,
      unexpected: wrong,
      rounds: list,
    }
  }
  const rps = (name) => runs[name].map((r) => r.rps)
  const cpu = (name) => runs[name].map((r) => r.serverCpuMicrosPerRequest)
  return {
    fixture: name,
    bytes: body.length,
    summary,
    ratio: pairedRatio(rps('publish'), rps('KV put baseline')),
    checkRatio: pairedRatio(rps('publish'), rps('EXPORT_POLICY=off')),
    checkCpuRatio: pairedRatio(cpu('publish'), cpu('EXPORT_POLICY=off')),
  }
}

/**
 * What the display-model check may cost a publish: a fifth of its rate, so 1.25x its CPU. The
 * row holds the CPU, since on two cores shared with the load generator and other tenants the rate
 * moves with them, while workerd's CPU per publish is what bounds a Worker's rate.
 */
const CHECK_CPU_TARGET = 1.25

/** The section's table rows: publishes over HTTP beside a KV put of the body, and without the check. */
export function publishingRows(r) {
  if (!r.publish) return []
  const p = r.publish.summary
  const pubs = (s) =>
    `${s.rps.toFixed(1)}/s, p50 ${s.p50.toFixed(1)} ms, ${ms(s.cpuMicros)} CPU/req`
  return [
    row(
      'publish',
      `POST ${EDITOR_EXPORTS_PATH}, ${r.publish.fixture} (${kb(r.publish.bytes)})`,
      pubs(p.publish),
      `KV put of the body: ${pubs(p['KV put baseline'])}`,
      r.publish.ratio,
      '',
      cleanRuns(p, 'publish', 'KV put baseline') ? '' : 'FAIL',
    ),
    row(
      'publish',
      `POST ${EDITOR_EXPORTS_PATH}, ${r.publish.fixture}: the display-model check / EXPORT_POLICY=off`,
      `${pubs(p.publish)} (req/s ${times(r.publish.checkRatio)})`,
      `EXPORT_POLICY=off: ${pubs(p['EXPORT_POLICY=off'])}`,
      r.publish.checkCpuRatio,
      `CPU/req <= ${CHECK_CPU_TARGET.toFixed(2)}x (req/s >= 0.80x)`,
      !cleanRuns(p, 'publish', 'EXPORT_POLICY=off')
        ? 'FAIL'
        : r.publish.checkCpuRatio <= CHECK_CPU_TARGET
          ? 'yes'
          : 'no',
    ),
  ]
}
