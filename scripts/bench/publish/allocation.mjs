/** The allocation section: ID allocation in a nearly empty space against a nearly full one. */
import { expectOk, getJson } from '../lib/service-calls.mjs'
import { interleave, median, pairedRatio } from '../lib/stats.mjs'
import { row, verdict } from '../lib/rows.mjs'

/**
 * Allocation latency in a space of 2000 IDs, 0-5% full against 90-95% full. Two allocators (two
 * Workers, each with its own objects) swap roles halfway, so each is measured full and empty as
 * often and a difference between the two instances cancels out.
 */
export async function allocation(urls, config) {
  const { space, fill, batch, rounds } = config
  const instances = [urls.probe, urls['probe-2']]
  for (const base of instances) await getJson(`${base}/alloc?count=10&release=1`)
  let duplicates = 0
  const us = { full: [], empty: [] }
  for (const [full, empty] of [instances, [...instances].reverse()]) {
    const filled = await getJson(`${full}/alloc?count=${fill}`)
    if (filled.distinct !== fill) throw new Error(`filling gave ${filled.distinct} distinct IDs`)
    const targets = { full, empty }
    const half = await interleave(['full', 'empty'], Math.ceil(rounds / 2), async (which) => {
      const r = await getJson(`${targets[which]}/alloc?count=${batch}&release=1`)
      duplicates += batch - r.distinct
      return (r.ms * 1000) / batch
    })
    us.full.push(...half.full)
    us.empty.push(...half.empty)
    const { ids, expiresAt } = filled
    await expectOk(
      fetch(`${full}/release`, { method: 'POST', body: JSON.stringify({ ids, expiresAt }) }),
    )
  }
  return {
    space,
    fullFrom: fill / space,
    fullTo: (fill + batch) / space,
    emptyTo: batch / space,
    batch,
    duplicates,
    emptyMicros: median(us.empty),
    fullMicros: median(us.full),
    ratio: pairedRatio(us.full, us.empty),
    rounds: us,
  }
}

/** The section's table row (in the publish area): allocation nearly full against nearly empty. */
export function allocationRows(r) {
  // Runs with the publish section (publish/index.mjs), so it is reported with it.
  if (!r.publish || !r.alloc) return []
  const a = r.alloc
  const pct = (x) => `${Math.round(x * 100)}%`
  return [
    row(
      'publish',
      `ID allocation, space of ${a.space}: ${pct(a.fullFrom)}-${pct(a.fullTo)} vs 0-${pct(a.emptyTo)} full`,
      `${a.fullMicros.toFixed(0)} us/ID`,
      `${a.emptyMicros.toFixed(0)} us/ID`,
      a.ratio,
      'flat (<= 1.25x)',
      a.duplicates === 0 ? verdict(a.ratio <= 1.25) : 'FAIL',
    ),
  ]
}
