/**
 * The bench's report: the rows of a run (bench-results/latest.json), each section's built by the
 * module that measures it, joined in one order, and the rows as one Markdown table.
 */
import { allocationRows } from './allocation.mjs'
import { graceCopyRows } from './grace-copy.mjs'
import { harvestRows } from './harvest.mjs'
import { latencyRows } from './latency.mjs'
import { limiterRows } from './limiter.mjs'
import { memoryNodeRows } from './memory-node-rows.mjs'
import { memoryRows } from './memory-workerd.mjs'
import { pageRows } from './page.mjs'
import { publishingRows } from './publishing.mjs'
import { requestRows } from './request-path.mjs'
import { times } from './stats.mjs'
import { walkerRows } from './walker.mjs'
import { writeBehindRows } from './write-behind.mjs'

/**
 * The table rows: one comparison each, subject beside its baseline from the same run. A ratio is
 * subject / baseline: higher is better for throughput, lower for latency, memory and CPU. `r` is
 * the run's figures (bench-results/latest.json), `config` the sizes and loads it ran with.
 */
export function tableRows(r, config) {
  return [
    walkerRows,
    memoryNodeRows,
    memoryRows,
    pageRows,
    requestRows,
    limiterRows,
    latencyRows,
    writeBehindRows,
    harvestRows,
    publishingRows,
    allocationRows,
    graceCopyRows,
  ].flatMap((sectionRows) => sectionRows(r, config))
}

/** The table as Markdown, readable in a terminal and ready for docs/performance.md. */
export function renderTable(r) {
  const head = ['area', 'case', 'subject', 'baseline (same run)', 'ratio', 'target', 'met']
  const body = r.rows.map((x) => [
    x.area,
    x.case,
    x.subject,
    x.baseline,
    times(x.ratio),
    x.target,
    x.met,
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => String(b[i]).length)))
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`
  const m = r.machine
  return [
    `Benchmark ${r.startedAt} (${r.seconds.toFixed(0)} s), ${m.nproc} cores ${m.cpuModel}, Node ${m.node}, workerd ${m.workerd}`,
    `Load average (1 min) before/after: ${m.loadavgBefore[0].toFixed(2)} / ${m.loadavgAfter[0].toFixed(2)}. Worker: ${r.entry}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
  ].join('\n')
}
