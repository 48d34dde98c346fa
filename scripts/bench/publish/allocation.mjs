/** The allocation section: ID allocation in a nearly empty space against a nearly full one. */
import { expectOk, getJson } from '../lib/service-calls.mjs'
import { median, pairedRatio, rotate } from '../lib/stats.mjs'
import { row, verdict } from '../lib/rows.mjs'

/**
 * Allocation latency in a space of 2000 IDs, 0-5% full against 90-95% full. Two allocators (two
 * Workers, each with its own objects) swap roles halfway, so each is measured full and empty as
 * often and a difference between the two instances cancels out. Both first allocate (and
 * release) as many IDs as a fill, so neither is measured colder than the other.
 *
 * A round allocates `batch` IDs in each, in `pieces` turns that alternate between the two (full,
 * empty, empty, full, ...), then releases them untimed: a burst of load from the machine's other
 * tenants falls on both rather than on one round's one side. A piece of 25 lasts 5-10 ms, timed by
 * workerd's 1 ms clock; the round's ratio is over the sum of its pieces.
 */
export async function allocation(urls, config) {
  const { space, fill, batch, pieces, rounds } = config
  const instances = [urls.probe, urls['probe-2']]
  for (const base of instances) await getJson(`${base}/alloc?count=${fill}&release=1`)
  let duplicates = 0
  const us = { full: [], empty: [] }
  for (const [full, empty] of [instances, [...instances].reverse()]) {
    const filled = await getJson(`${full}/alloc?count=${fill}`)
    if (filled.distinct !== fill) throw new Error(`filling gave ${filled.distinct} distinct IDs`)
    const targets = { full, empty }
    for (let round = 0; round < Math.ceil(rounds / 2); round++) {
      const ms = { full: 0, empty: 0 }
      const issued = { full: [], empty: [] }
      for (let piece = 0; piece < pieces; piece++) {
        for (const which of rotate(['full', 'empty'], round + piece)) {
          const r = await getJson(`${targets[which]}/alloc?count=${batch / pieces}`)
          ms[which] += r.ms
          issued[which].push(r)
        }
      }
      for (const which of ['full', 'empty']) {
        const ids = issued[which].flatMap((r) => r.ids)
        const held = which === 'full' ? [...filled.ids, ...ids] : ids
        duplicates += held.length - new Set(held).size
        us[which].push((ms[which] * 1000) / batch)
        for (const { ids, expiresAt } of issued[which])
          await release(targets[which], ids, expiresAt)
      }
    }
    await release(full, filled.ids, filled.expiresAt)
  }
  return {
    space,
    fullFrom: fill / space,
    fullTo: (fill + batch) / space,
    emptyTo: batch / space,
    batch,
    pieces,
    duplicates,
    emptyMicros: median(us.empty),
    fullMicros: median(us.full),
    ratio: pairedRatio(us.full, us.empty),
    rounds: us,
  }
}

async function release(base, ids, expiresAt) {
  await expectOk(
    fetch(`${base}/release`, { method: 'POST', body: JSON.stringify({ ids, expiresAt }) }),
  )
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
