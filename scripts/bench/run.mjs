#!/usr/bin/env node
/**
 * `npm run bench`: the dispatcher. Each section (sections.mjs, one folder each) measures figures
 * beside a baseline from the same run, as ratios (docs/performance.md says how to read them).
 * This builds what the sections share (the bundles, the one workerd), runs the selected ones in
 * three phases (before the shared workerd starts, while it runs, after it stopped), prints one
 * table and writes every figure to bench-results/latest.json; `-- --save` also keeps them in
 * docs/bench-latest.json (a run of some sections replaces only theirs: lib/saved-run.mjs),
 * `-- --quick` runs a short smoke version, `-- --only a,b` some sections. scripts/bench/README.md describes the options and the sections.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildBundles } from './lib/bundles.mjs'
import { nodeJson } from './lib/child-process.mjs'
import { machine } from './lib/machine.mjs'
import {
  BENCH_FLUSH_SECONDS,
  BUILD,
  FIXTURES,
  HIGH_LIMITS,
  OUT_DIR,
  PUBLISH_TOKEN,
  ROOT,
  TAGS,
  SUBSTITUTION_INPUTS,
  parseOptions,
} from './lib/options.mjs'
import { renderTable, saveCopy, tableRows } from './lib/report.mjs'
import { savedCopy } from './lib/saved-run.mjs'
import { SHARED_WORKER_FILES, withSharedWorkerd } from './lib/shared-workerd.mjs'
import { deployedVars } from './lib/wrangler-toml.mjs'
import { SECTIONS } from './sections.mjs'

const options = parseOptions(process.argv.slice(2))
if (options.save && process.env.HARVEST_MIXED_ONLY === '1') {
  throw new Error('HARVEST_MIXED_ONLY=1 runs only some of the harvest rows: not a run to --save')
}
const log = (...parts) => console.error('[bench]', ...parts)
const casesModule = pathToFileURL(join(BUILD, 'substitution-cases.mjs')).href
/** @type {import('./sections.mjs').Bench} */
const bench = {
  root: ROOT,
  fixtures: FIXTURES,
  buildDir: BUILD,
  config: options.config,
  quick: options.quick,
  delays: options.delays,
  token: PUBLISH_TOKEN,
  tags: TAGS,
  substitutionInputs: SUBSTITUTION_INPUTS,
  highLimits: HIGH_LIMITS,
  flushSeconds: BENCH_FLUSH_SECONDS,
  log,
  nodeJson: (script, nodeFlags, config) => nodeJson(ROOT, script, nodeFlags, config),
  deployedVars: () => deployedVars(ROOT),
  cases: null,
  casesModule,
}
const sections = SECTIONS.map((entry) => entry(bench))
const unknown = (options.only ?? []).filter((name) => !sections.some((s) => s.name === name))
if (unknown.length > 0) {
  throw new Error(`no section ${unknown.join(', ')}: ${sections.map((s) => s.name).join(', ')}`)
}
const selected = sections.filter((s) => options.only === null || options.only.includes(s.name))

const results = {
  startedAt: new Date().toISOString(),
  machine: machine(ROOT),
  config: options.config,
  entry: options.entry ?? 'wrangler.toml main (npm run build)',
}
const started = performance.now()
/** Each section's own seconds (its phases) and the figure keys it returned, by name. */
const sectionSeconds = {}
const sectionKeys = {}
/** Runs one phase of `section`, timing it and keeping the figures it returns. */
async function phase(section, run) {
  const from = performance.now()
  const figures = (await run()) ?? {}
  sectionSeconds[section.name] =
    (sectionSeconds[section.name] ?? 0) + (performance.now() - from) / 1000
  sectionKeys[section.name] = [...(sectionKeys[section.name] ?? []), ...Object.keys(figures)]
  Object.assign(results, figures)
}

await buildBundles({
  root: ROOT,
  buildDir: BUILD,
  outDir: OUT_DIR,
  entry: options.entry,
  workers: [...SHARED_WORKER_FILES, ...selected.flatMap((s) => s.bundles?.workers ?? [])],
  node: [
    new URL('./lib/substitution-cases.ts', import.meta.url),
    ...selected.flatMap((s) => s.bundles?.node ?? []),
  ],
  log,
})
bench.cases = await import(casesModule)

for (const section of selected) {
  if (section.before) await phase(section, () => section.before())
}
const inWorkerd = selected.filter((s) => s.during || s.after)
if (inWorkerd.length > 0) {
  await withSharedWorkerd(
    bench,
    inWorkerd.flatMap((s) => (s.workers ? [s.workers] : [])),
    async (workerd) => {
      for (const section of inWorkerd) {
        if (section.during) await phase(section, () => section.during(workerd))
      }
    },
    async (storageDir) => {
      for (const section of inWorkerd) {
        if (section.after) await phase(section, () => section.after(results, storageDir))
      }
    },
  )
}

results.seconds = (performance.now() - started) / 1000
results.machine.loadavgAfter = os.loadavg()
// The figures first: a row function that throws must not lose a run's measurements.
mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(join(OUT_DIR, 'latest.json'), JSON.stringify(results, null, 2) + '\n')
results.rows = tableRows(
  results,
  options.config,
  sections.flatMap((s) => s.rows),
)
mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(join(OUT_DIR, 'latest.json'), JSON.stringify(results, null, 2) + '\n')
if (options.save) {
  const savedPath = join(ROOT, 'docs/bench-latest.json')
  const copy = savedCopy({
    run: results,
    names: selected.map((s) => s.name),
    seconds: sectionSeconds,
    keys: sectionKeys,
    order: sections.map((s) => s.name),
    rowsOf: (names, figures) =>
      tableRows(
        figures,
        figures.config,
        sections.filter((s) => names.includes(s.name)).flatMap((s) => s.rows),
      ),
    saved: existsSync(savedPath) ? JSON.parse(readFileSync(savedPath, 'utf8')) : null,
    options: { only: options.only, quick: options.quick },
  })
  await saveCopy(ROOT, copy)
}
console.log(renderTable(results))
const missed = results.rows.filter((row) => row.met === 'no' || row.met === 'FAIL')
log(`done in ${results.seconds.toFixed(0)} s; ${missed.length} target(s) missed or failed`)
const savedWhat = options.only === null ? '' : ` (its ${options.only.join(', ')} sections)`
log(
  `figures: ${join(OUT_DIR, 'latest.json')}` +
    (options.save ? ` and docs/bench-latest.json${savedWhat}` : ''),
)
