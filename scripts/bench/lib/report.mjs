/**
 * The bench's report: the rows of a run (bench-results/latest.json), each section's built by its
 * own row functions, joined in the sections' order, the rows as one Markdown table, and the
 * copy kept in the repository.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { times } from './stats.mjs'

/**
 * The table rows: one comparison each, subject beside its baseline from the same run. A ratio is
 * subject / baseline: higher is better for throughput, lower for latency, memory and CPU. `r` is
 * the run's figures (bench-results/latest.json), `config` the sizes and loads it ran with,
 * `rowFunctions` every section's, in table order (a section that did not run gives no rows).
 */
export function tableRows(r, config, rowFunctions) {
  return rowFunctions.flatMap((sectionRows) => sectionRows(r, config))
}

/** docs/bench-latest.json: the same figures, formatted as Prettier would, for the repository. */
export async function saveCopy(root, r) {
  const prettier = await import('prettier')
  const text = await prettier.format(JSON.stringify(r), { parser: 'json', printWidth: 100 })
  writeFileSync(join(root, 'docs/bench-latest.json'), text)
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
