/**
 * The publish section: publishes per second over HTTP against a KV put of the same bytes, and
 * against the same service with `EXPORT_POLICY=off` (what the display-model check costs).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { interleave, median, pairedRatio } from '../lib/stats.mjs'
import { cleanRuns, kb, ms, row } from '../lib/rows.mjs'
import { EDITOR_EXPORTS_PATH } from '../../../src/contract/routes.ts'

/** Publishes per second over HTTP, against storing the same bytes in KV directly. */
export async function publishing({ urls, runLoad, fixtures, config, token }) {
  const { fixture: name, amount, connections, rounds } = config
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
  const load = (name, n) =>
    runLoad({
      url: loads[name].url,
      method: 'POST',
      connections,
      amount: n,
      request: () => ({ path: loads[name].path, headers: loads[name].headers, body }),
    })
  for (const name of Object.keys(loads)) await load(name, connections * 2)
  const runs = await interleave(Object.keys(loads), rounds, (name) => load(name, amount))
  const summary = {}
  for (const [name, list] of Object.entries(runs)) {
    const wrong = list.reduce(
      (sum, r) => sum + r.requests - (r.statuses[loads[name].expect] ?? 0) + r.errors,
      0,
    )
    summary[name] = {
      rps: median(list.map((r) => r.rps)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      cpuMicros: median(list.map((r) => r.serverCpuMicrosPerRequest)),
      unexpected: wrong,
      rounds: list,
    }
  }
  return {
    fixture: name,
    bytes: body.length,
    summary,
    ratio: pairedRatio(
      runs.publish.map((r) => r.rps),
      runs['KV put baseline'].map((r) => r.rps),
    ),
    checkRatio: pairedRatio(
      runs.publish.map((r) => r.rps),
      runs['EXPORT_POLICY=off'].map((r) => r.rps),
    ),
  }
}

/** Publishing with the display-model check may cost at most a fifth of its speed. */
const CHECK_TARGET = 0.8

/** The section's table row: publishes over HTTP beside a KV put of the body. */
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
      pubs(p.publish),
      `EXPORT_POLICY=off: ${pubs(p['EXPORT_POLICY=off'])}`,
      r.publish.checkRatio,
      `>= ${CHECK_TARGET.toFixed(2)}x`,
      !cleanRuns(p, 'publish', 'EXPORT_POLICY=off')
        ? 'FAIL'
        : r.publish.checkRatio >= CHECK_TARGET
          ? 'yes'
          : 'no',
    ),
  ]
}
