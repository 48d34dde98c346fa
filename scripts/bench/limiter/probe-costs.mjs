/** The limiter section's first half; the second, sustained writes, is write-behind.mjs. */
import { getJson } from '../lib/service-calls.mjs'
import { interleave, median, pairedRatio } from '../lib/stats.mjs'
import { cleanRuns, ms, requestRate, row, verdict } from '../lib/rows.mjs'

/** The limiter's Durable Object call alone, against a bare RPC to an object without storage. */
export async function limiterCost(probe, config) {
  const { calls, rounds } = config
  const keys = calls
  const paths = ['limiter', 'echo', 'write']
  // Twice: a limiter object writes its first request at once and holds the next in memory, so
  // the timed calls are those of clients in mid-stream, as at sustained load.
  for (let warm = 0; warm < 2; warm++) {
    for (const path of paths) await getJson(`${probe}/${path}?n=${calls}&keys=${keys}`)
  }
  const us = await interleave(paths, rounds, async (path) => {
    const { ms } = await getJson(`${probe}/${path}?n=${calls}&keys=${keys}`)
    return (ms * 1000) / calls
  })
  return {
    calls,
    keys,
    hitMicros: median(us.limiter),
    echoMicros: median(us.echo),
    writeMicros: median(us.write),
    ratio: pairedRatio(us.limiter, us.echo),
    rounds: us,
  }
}

/**
 * The section's table rows: the request path with the limiter against without it (from the
 * request section's runs, `r.http`), then the limiter's call alone (`r.limiter`).
 */
export function limiterRows(r) {
  const rows = []
  if (r.http) {
    const h = r.http.summary
    rows.push(
      row(
        'limiter',
        'GET, with the limiter vs the same routes without it',
        requestRate(h.GET),
        `no limiter: ${requestRate(h['GET no limiter'])}`,
        r.http.ratios['GET vs no limiter'],
        '',
        cleanRuns(h, 'GET no limiter') ? '' : 'FAIL',
      ),
    )
    rows.push(
      row(
        'limiter',
        'GET from 16 addresses (limiter objects stay in memory) vs the KV pass-through',
        requestRate(h['GET 16 clients']),
        `KV pass-through: ${requestRate(h['GET baseline'])}`,
        r.http.ratios['GET 16 clients'],
        '',
        cleanRuns(h, 'GET 16 clients') ? '' : 'FAIL',
      ),
      row(
        'limiter',
        'HEAD, with the limiter vs without it',
        requestRate(h.HEAD),
        `no limiter: ${requestRate(h['HEAD no limiter'])}`,
        r.http.ratios['HEAD vs no limiter'],
        '',
        cleanRuns(h, 'HEAD no limiter') ? '' : 'FAIL',
      ),
      row(
        'limiter',
        'HEAD from a new address every time vs from known ones',
        requestRate(h['HEAD new client']),
        `known addresses: ${requestRate(h.HEAD)}`,
        r.http.ratios['HEAD new client vs known'],
        '',
        cleanRuns(h, 'HEAD new client') ? '' : 'FAIL',
      ),
      row(
        'limiter',
        'workerd CPU per HEAD, with the limiter vs without it',
        `${ms(h.HEAD.cpuMicros)} (limiter: +${ms(h.HEAD.cpuMicros - h['HEAD no limiter'].cpuMicros)})`,
        ms(h['HEAD no limiter'].cpuMicros),
        h.HEAD.cpuMicros / h['HEAD no limiter'].cpuMicros,
      ),
    )
  }
  if (r.limiter) {
    const l = r.limiter
    rows.push(
      row(
        'limiter',
        `a limiter object's admission call alone, sequential, ${l.keys} clients`,
        `${l.hitMicros.toFixed(0)} us/call`,
        `bare DO RPC ${l.echoMicros.toFixed(0)} us/call (plus one storage write: ${l.writeMicros.toFixed(0)} us)`,
        l.ratio,
        '<= 1.5x',
        verdict(l.ratio <= 1.5),
      ),
    )
  }
  return rows
}
