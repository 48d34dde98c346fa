/**
 * The rows of the plugins' fetch patterns and of the neighbour floods (plugin-patterns.mjs):
 * the share of a pattern's requests served (200), against the same requests one after another
 * (or one server alone, or no flood) in the same run. The target is every request served: each
 * pattern stays within the spec's windows and fetches only live IDs.
 */
import { row, verdict } from '../lib/rows.mjs'
import { servedShare } from './callers.mjs'
import { pct } from './shares.mjs'

const n = (x) => x.toLocaleString('en-US')

/** A caller's figures in one cell: its share served, and its refusals by status. */
function servedCell(f) {
  const other = f.other === 0 ? '' : `, ${f.other} other`
  return (
    `${pct(servedShare(f))} served (${n(f.served)} of ${n(f.requests)}; ` +
    `${f.refused429} 429, ${f.refused503} 503${other})`
  )
}

function shareRow(what, subject, baselineName, baseline) {
  const b = servedShare(baseline)
  return row(
    'harvest',
    what,
    servedCell(subject),
    `${baselineName}: ${pct(b)} served`,
    b === 0 ? 0 : servedShare(subject) / b,
    'all served',
    verdict(subject.served === subject.requests),
  )
}

/** @type {import('../sections.mjs').RowFunction} */
export function patternRows(r) {
  const p = r.harvest?.patterns
  if (!p) return []
  const rows = p.chunkLoads.map((c) =>
    shareRow(
      `sanscraft-bde chunk load: ${c.n} placed blocks fetched at once from one address`,
      c.atOnce,
      `the same ${c.n} one after another`,
      c.oneByOne,
    ),
  )
  const s = p.startup
  rows.push(
    shareRow(
      `BlockDisplayCreator startup: ${s.servers} servers of one /24 restarting together, ` +
        `${s.models} models each one after another, a new connection each`,
      s.together,
      'one server restarting alone',
      s.alone,
    ),
  )
  const j = p.java
  rows.push(
    shareRow(
      `the Java client fetching ${j.models} models at once, default settings ` +
        `(maxRetryWait ${j.maxRetryWaitMs / 1000} s: ${j.maxRetryWaitMs === 0 ? 'no retry' : 'retries within it'})`,
      j.atOnce,
      `the same ${j.models} one after another`,
      j.oneByOne,
    ),
  )
  for (const f of p.floods) {
    const nb = f.neighbour
    rows.push(
      shareRow(
        `a plugin server's hits (one every 2 s for 20 s) at ${f.address}, beside a neighbour ` +
          `sending ${n(f.size)} hits at once${f.bursts === 1 ? '' : `, ${f.bursts} times 10 s apart`}, from ${f.what}`,
        f.server,
        `no flood`,
        f.quiet,
      ),
    )
    // The neighbour's own share, in the case cell's subject: context, not a target.
    rows.at(-1).subject += `; the neighbour: ${n(nb.served)} of ${n(nb.requests)} served`
  }
  return rows
}
