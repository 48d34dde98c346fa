/**
 * Figures the README and the docs take from a benchmark run, held to that run
 * (docs/bench-latest.json, which `npm run bench -- --save` writes): the run they cite, the table
 * of docs/performance.md row by row, and each figure quoted in prose, computed here from the
 * run's rows. A new run that moves a figure, or a figure edited by hand, fails here until the
 * text says what the run measured.
 */
import { describe, expect, it } from 'vitest'
import bench from '../../docs/bench-latest.json'
import operations from '../../docs/operations.md?raw'
import performance from '../../docs/performance.md?raw'
import readme from '../../README.md?raw'
import benchReadme from '../../scripts/bench/README.md?raw'
import { flat, prose, section, tableRows } from '../support/markdown'

type Row = (typeof bench.rows)[number]

/** The row whose case is `name` (and whose baseline starts with `baseline`, when given). */
function row(name: string, baseline = ''): Row {
  const found = bench.rows.filter((r) => r.case === name && r.baseline.startsWith(baseline))
  if (found.length !== 1) throw new Error(`${found.length} rows "${name}" / "${baseline}"`)
  return found[0]!
}

/** Every row of `area` whose case and baseline match. */
function rows(area: string, name: RegExp, baseline: RegExp = /./): Row[] {
  const found = bench.rows.filter(
    (r) => r.area === area && name.test(r.case) && baseline.test(r.baseline),
  )
  if (found.length === 0) throw new Error(`no rows ${name} / ${baseline}`)
  return found
}

/** A ratio as the table prints it: `0.63x`, `11.3x`. */
const ratio = (r: Row) => `${r.ratio.toFixed(r.ratio < 10 ? 2 : 1)}x`
/** A ratio as prose rounds it: `1.3`, `8.4`, `14`. */
const rounded = (n: number) => (n >= 10 ? String(Math.round(n)) : n.toFixed(1))
/** The smallest and the largest ratio of `found`, as prose writes a range: `1.3-8.4`. */
function range(found: Row[]): string {
  const ratios = found.map((r) => r.ratio)
  return `${rounded(Math.min(...ratios))}-${rounded(Math.max(...ratios))}`
}
/** The first number in `text` after `before`: `figure('22.9 ms (-0.3 ms)', '')` is `22.9`. */
function figure(text: string, before = ''): string {
  const from = before === '' ? 0 : text.indexOf(before)
  if (from < 0) throw new Error(`no "${before}" in "${text}"`)
  return /\$?([0-9][0-9,]*(\.[0-9]+)?)/.exec(text.slice(from + before.length))![1]!
}
/** Dollars rounded to cents: `$0.179` is `$0.18`. */
const cents = (text: string) => `$${Number(text).toFixed(2)}`

const startedAt = bench.startedAt
/** The run as the docs cite it: `2026-11-26T15:16Z`. */
const runMinute = `${startedAt.slice(0, 16)}Z`

const GET = row('GET animated-80-displays (457 KiB), varied tags, 1024 IPs (limiter objects cold)')
const HEAD = row('HEAD (same export)')
const FLOOR_COLD = row('GET, limiter object without storage (the floor of one RPC), cold')
const FLOOR_WARM = row('GET, limiter object without storage, 16 IPs (warm)')
const SUBSTITUTION_A = (where: string) =>
  rows('substitution', new RegExp(`${where}: read path \\(splicer\\)$`), /^\(a\)/)
const SUBSTITUTION_B = rows('substitution', /: read path \(splicer\)$/, /^\(b\)/)
const PUBLISH_MEMORY = rows(
  'memory',
  /publish of (25 MiB of empty objects|a single 25 MiB string|a 25 MiB display model)/,
)
/** The least or the most of the 25 MiB publishes' growth, as written: `124.9`. */
const megabytes = (pick: (...values: number[]) => number) =>
  pick(...PUBLISH_MEMORY.map((r) => Number(figure(r.subject)))).toFixed(1)
const CHECK = row(
  'POST /editor-api/exports, animated-80-displays: the display-model check / EXPORT_POLICY=off',
)
const BUSY_ROWS = row(
  'row writes per retrieval, 1 client at 2 req/s; bytes stored after the windows lapsed',
)
const ONE_OFF_COST = row(
  'cost per million retrievals (GET), one-off clients, 1 request each, over 1 / 12 months of new addresses',
)
const BUSY_COST = row('cost per million retrievals (GET), rows of 1 client at 2 req/s, any month')
const HARVEST_48 = rows('harvest', /one IPv6 \/48, 600 live/, /^/)[0]!
const FIRST_GET = rows('limiter', /p50 of a first GET from a new address/)[0]!
const PAGE = rows('page', /^input wait/)
const WITH_REQUEST_AND_READ = 'with Worker request and KV read '

/** The sections saved from runs of their own since the full run. */
type SavedSection = 'harvest' | 'limiter' | 'adversarial'

/**
 * The run some sections were last saved from (`npm run bench -- --only <sections> --save`), as
 * docs/performance.md cites it: the whole command's seconds, and each section's own.
 */
function sectionRun(name: SavedSection): string {
  const run = bench.sections[name]
  const own = run
    .only!.map((section) => {
      const seconds = Math.round(bench.sections[section as SavedSection].seconds!)
      return `${section} ${seconds} s`
    })
    .join(', ')
  return (
    `\`npm run bench -- --only ${run.only!.join(',')} --save\` on commit ${run.commit}, started ` +
    `${run.startedAt.slice(0, 19)}Z, ${Math.round(run.runSeconds)} s (${own}), load average ` +
    `${run.loadavgBefore[0]} before and ${run.loadavgAfter[0]} after`
  )
}

/** The claims each document makes of the run, as they must read there. */
const CLAIMS: Record<string, { text: string; claims: string[] }> = {
  'README.md': {
    text: prose(section(readme, '## Performance')),
    claims: [
      `The latest full run, ${runMinute}`,
      `GET of a 457 KiB export at ${ratio(GET)} of a KV pass-through Worker and HEAD at ${ratio(HEAD)} of a KV metadata read`,
    ],
  },
  'docs/performance.md, in short': {
    text: prose(section(performance, '## In short')),
    claims: [
      `GET of a 457 KiB export at ${ratio(GET)} of a KV pass-through Worker and HEAD at ${ratio(HEAD)} of a KV metadata read`,
      `${ratio(FLOOR_COLD)} cold, ${ratio(FLOOR_WARM)} warm`,
      `substitution at ${range(SUBSTITUTION_A('workerd'))}x of`,
      `in workerd and ${range(SUBSTITUTION_A('Node'))}x in Node`,
      `grows workerd by ${megabytes(Math.min)}-${megabytes(Math.max)} MiB`,
      `a publish costs workerd ${ratio(CHECK)} the CPU of one without it`,
      `busy clients write ${figure(BUSY_ROWS.subject)} rows per retrieval`,
      `at $${figure(BUSY_COST.subject, WITH_REQUEST_AND_READ)} per million with the Worker request and the KV read`,
      `finds ${rounded(Number(figure(HARVEST_48.subject)))} live ones`,
      `a first GET takes ${figure(FIRST_GET.subject)} ms with the limiter and ${figure(FIRST_GET.baseline, ':')} ms without`,
      `at ${range(PAGE)}x of the smallest fixture's wait`,
    ],
  },
  'docs/operations.md': {
    text: prose(section(operations, '## Cost per million retrievals')),
    claims: [`the full run of ${runMinute}`],
  },
  'docs/performance.md': {
    text: prose(performance),
    claims: [
      `on commit ${bench.machine.commit}, started ${startedAt.slice(0, 19)}Z, ${Math.round(bench.seconds)} s, on ${bench.machine.nproc} cores`,
      `load average ${bench.machine.loadavgBefore[0]} before and ${bench.machine.loadavgAfter[0]} after`,
      `${bench.rows.filter((r) => r.met === 'yes').length} targets met, ${bench.rows.filter((r) => r.met === 'no').length} missed (${SUBSTITUTION_B.filter((r) => r.met === 'no').length} of them the 50x`,
      `in Node on every input (${range(SUBSTITUTION_A('Node'))}x)`,
      `(${rounded(SUBSTITUTION_B.find((r) => r.met === 'yes' && /workerd/.test(r.case))!.ratio)}x in workerd, ${rounded(SUBSTITUTION_B.find((r) => r.met === 'yes' && /Node/.test(r.case))!.ratio)}x in Node) and missed on the rest (${range(SUBSTITUTION_B.filter((r) => r.met === 'no'))}x)`,
      `(${ratio(GET)}, ${ratio(HEAD)})`,
      `(${figure(FIRST_GET.subject)} ms with it, ${figure(FIRST_GET.baseline, ':')} ms without`,
      `costs a publish ${ratio(CHECK)} the CPU of one without it (\`EXPORT_POLICY=off\``,
      // Each section saved from a run of its own since the full run, as the docs cite it.
      ...new Set(
        (['limiter', 'harvest', 'adversarial'] as const)
          .filter((name) => bench.sections[name].only !== null)
          .map(sectionRun),
      ),
    ],
  },
}

/**
 * How long a whole `npm run bench` takes, as the saved sections' records add up: each section's
 * own seconds, and for the sections saved only with a whole run (whose own seconds were not
 * kept), that run's seconds once.
 */
function savedSeconds(): number {
  const wholeRuns = new Map<string, number>()
  let own = 0
  for (const s of Object.values(bench.sections)) {
    if (s.seconds === null) wholeRuns.set(s.startedAt, s.runSeconds)
    else own += s.seconds
  }
  return [...wholeRuns.values()].reduce((a, b) => a + b, own)
}

/** How long a whole run takes, as the docs give it: `41.2 minutes`. */
const benchMinutes = `${(savedSeconds() / 60).toFixed(1)} minutes on 2 cores (the saved sections' times added up)`

describe('figures taken from docs/bench-latest.json', () => {
  it.each([
    ['README.md', section(readme, '## Test and benchmark')],
    ['docs/performance.md', performance],
    ['scripts/bench/README.md', benchReadme],
  ])("%s's `npm run bench` line says how long the saved sections took", (_, text) => {
    const line = text.split('\n').find((l) => /^npm run bench +#/.test(l))
    expect(line, 'the line of a plain `npm run bench`').toContain(`# ${benchMinutes}`)
    expect(bench.machine.nproc).toBe(2)
  })

  it.each([
    ['README.md', section(readme, '## Test and benchmark')],
    ['docs/performance.md', performance],
  ])("%s's `--only harvest,limiter --save` line says how long its saved run took", (_, text) => {
    const line = text
      .split('\n')
      .find((l) => /^npm run bench -- --only harvest,limiter --save +#/.test(l))
    const minutes = (bench.sections.harvest.runSeconds / 60).toFixed(1)
    expect(bench.sections.harvest.only).toEqual(['harvest', 'limiter'])
    expect(line).toContain(`# ${minutes} minutes on 2 busy cores (its saved run)`)
  })

  it.each(Object.entries(CLAIMS))('%s says what the run measured', (_, { text, claims }) => {
    const missing = claims.filter((claim) => !text.includes(flat(claim)))
    expect(missing, 'claims that do not read so in the document').toEqual([])
  })

  it("docs/performance.md's table is the run's, row by row", () => {
    const table = tableRows(section(performance, '## The table'), '| area ')
    expect(table).toEqual(
      bench.rows.map((r) => [
        r.area,
        r.case,
        r.subject,
        r.baseline,
        ratio(r),
        r.target.replaceAll('|', '\\|'),
        r.met,
      ]),
    )
  })

  it("docs/performance.md's harvest table shows the saved rows as they are", () => {
    const table = tableRows(section(performance, '## Harvest through the Worker'), '| case ')
    expect(table.length).toBeGreaterThan(0)
    for (const [name, , now, target, met] of table) {
      const saved = row(name!)
      expect([now, target, met], name).toEqual([
        saved.subject,
        saved.target.replaceAll('|', '\\|'),
        saved.met,
      ])
    }
  })

  it("the runbook's cost table has the run's CPU, requests, rows and totals", () => {
    const cost = tableRows(operations, '| item ')
    const line = (item: string) => cost.find(([name]) => name === item)!
    // The CPU of a GET, as the request row measured it: `..., 1.47 ms CPU/req`.
    expect(line('Worker CPU')[2]).toBe(`${figure(GET.subject.split(', ').at(-1)!)} ms`)
    expect(line('Worker CPU')[4]).toBe(line('Worker CPU')[2])
    expect(line('Durable Object rows written')[4]).toBe(`${figure(BUSY_ROWS.subject)} (flushes)`)
    expect(line('Durable Object requests')[4]).toBe(
      `${(Number(figure(BUSY_COST.subject, 'DO ')) / 0.15).toFixed(2)} (and alarms)`,
    )
    const benchFigure = line("**the bench's figure**")
    expect(benchFigure[3]).toBe(`**$${figure(ONE_OFF_COST.subject, WITH_REQUEST_AND_READ)}**`)
    expect(benchFigure[5]).toBe(`**$${figure(BUSY_COST.subject, WITH_REQUEST_AND_READ)}**`)
    // The total is the bench's figure with the log event and the data point.
    const dollars = (cell: string) => Number(cell.replace(/[*$]/g, ''))
    for (const column of [3, 5]) {
      const total =
        dollars(benchFigure[column]!) +
        dollars(line('Workers Logs event')[column]!) +
        dollars(line('Analytics Engine data point')[column]!)
      expect(line('**total**')[column]).toBe(`**$${total.toFixed(2)}**`)
    }
    const limiterShare = `${cents(figure(ONE_OFF_COST.subject))} and ${cents(figure(BUSY_COST.subject))} here`
    expect(prose(section(operations, '## Cost per million retrievals'))).toContain(limiterShare)
    // The figure in all that docs/performance.md gives in short is the table's.
    expect(prose(section(performance, '## In short'))).toContain(
      `(${line('**total**')[5]!.replace(/\*/g, '')} with logs and metrics)`,
    )
  })
})
