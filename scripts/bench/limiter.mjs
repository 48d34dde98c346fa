/** The limiter section's first half; the second, sustained writes, is write-behind.mjs. */
import { getJson } from './service-calls.mjs'
import { interleave, median, pairedRatio } from './stats.mjs'

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
