#!/usr/bin/env node
/**
 * `npm run bench`: the dispatcher. Each section (sections.mjs, one folder each) measures figures
 * beside a baseline from the same run, as ratios (docs/performance.md says how to read them).
 * This builds what the sections share (the bundles, the one workerd), runs the selected ones in
 * three phases (before the shared workerd starts, while it runs, after it stopped), prints one
 * table and writes every figure to bench-results/latest.json; `-- --save` also copies that file
 * to docs/bench-latest.json, `-- --quick` runs a short smoke version, `-- --only a,b` some
 * sections. scripts/bench/README.md describes the options and the sections.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
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
import { SHARED_WORKER_FILES, withSharedWorkerd } from './lib/shared-workerd.mjs'
import { deployedVars } from './lib/wrangler-toml.mjs'
import { SECTIONS } from './sections.mjs'

const options = parseOptions(process.argv.slice(2))
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
  if (section.before) Object.assign(results, await section.before())
}
const inWorkerd = selected.filter((s) => s.during || s.after)
if (inWorkerd.length > 0) {
  await withSharedWorkerd(
    bench,
    inWorkerd.flatMap((s) => (s.workers ? [s.workers] : [])),
    async (workerd) => {
      for (const section of inWorkerd) {
        if (section.during) Object.assign(results, await section.during(workerd))
      }
    },
    async (storageDir) => {
      for (const section of inWorkerd) await section.after?.(results, storageDir)
    },
  )
}

results.seconds = (performance.now() - started) / 1000
results.machine.loadavgAfter = os.loadavg()
results.rows = tableRows(
  results,
  options.config,
  sections.flatMap((s) => s.rows),
)
mkdirSync(OUT_DIR, { recursive: true })
writeFileSync(join(OUT_DIR, 'latest.json'), JSON.stringify(results, null, 2) + '\n')
if (options.save) await saveCopy(ROOT, results)
console.log(renderTable(results))
const missed = results.rows.filter((row) => row.met === 'no' || row.met === 'FAIL')
log(`done in ${results.seconds.toFixed(0)} s; ${missed.length} target(s) missed or failed`)
log(`figures: ${join(OUT_DIR, 'latest.json')}${options.save ? ' and docs/bench-latest.json' : ''}`)
