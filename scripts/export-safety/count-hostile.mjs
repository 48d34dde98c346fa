#!/usr/bin/env node
/**
 * How many of the hostile generator's cases (test/support/hostile-exports.ts) a check accepts,
 * by kind, and whether the readers agree on each accepted one (test/support/hostile-readings.ts):
 *
 *   node scripts/export-safety/count-hostile.mjs [--check-root DIR] [--seed N] [--count N]
 *
 * `--check-root` is a checkout whose `src/export-safety/` check is counted (default: this one),
 * so that another branch's check, or main's, is counted against the same cases. Prints JSON.
 */
import { build } from 'esbuild'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const checkRoot = resolve(option('--check-root', ROOT))
const seed = Number(option('--seed', '41'))
const count = Number(option('--count', '5000'))

const dir = mkdtempSync(join(os.tmpdir(), 'hostile-'))
try {
  const entry = join(dir, 'entry.ts')
  writeFileSync(
    entry,
    [
      `export { hostileExports, HOSTILE_KINDS } from ${JSON.stringify(join(ROOT, 'test/support/hostile-exports.ts'))}`,
      `export { readingDifference } from ${JSON.stringify(join(ROOT, 'test/support/hostile-readings.ts'))}`,
      `export { substitution } from ${JSON.stringify(join(ROOT, 'src/substitution/index.ts'))}`,
      `export { checkExportSafety } from ${JSON.stringify(join(checkRoot, 'src/export-safety/index.ts'))}`,
    ].join('\n'),
  )
  const outfile = join(dir, 'bundle.mjs')
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'error',
  })
  const lib = await import(pathToFileURL(outfile).href)
  const names = ['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays']
  const fixtures = Object.fromEntries(
    names.map((name) => [name, readFileSync(join(ROOT, 'fixtures', `${name}.json`), 'utf8')]),
  )
  const fetched = (json, tag) => {
    const engine = lib.substitution(tag, { escapedPlaceholders: true })
    const bytes = new TextEncoder().encode(json)
    const out = [engine.push(bytes), engine.finish()]
    return Buffer.concat(out.map((part) => Buffer.from(part))).toString('utf8')
  }
  const byKind = {}
  const examples = []
  for (const c of lib.hostileExports({ seed, count, fixtures })) {
    const row = (byKind[c.kind] ??= {
      cases: 0,
      accepted: 0,
      acceptedReadersAgree: 0,
      acceptedReadersDisagree: 0,
    })
    row.cases++
    if (!lib.checkExportSafety(c.json).safe) continue
    row.accepted++
    let why = lib.readingDifference(c.json)
    for (const tag of c.fetchTags)
      why ??=
        lib.readingDifference(fetched(c.json, tag)) &&
        `tag=${tag}: ${lib.readingDifference(fetched(c.json, tag))}`
    if (why === null) row.acceptedReadersAgree++
    else {
      row.acceptedReadersDisagree++
      if (examples.length < 12)
        examples.push({
          id: c.id,
          kind: c.kind,
          place: c.place,
          position: c.position,
          insertion: c.insertion,
          why,
        })
    }
  }
  const total = Object.values(byKind).reduce(
    (sum, row) => ({
      cases: sum.cases + row.cases,
      accepted: sum.accepted + row.accepted,
      acceptedReadersAgree: sum.acceptedReadersAgree + row.acceptedReadersAgree,
      acceptedReadersDisagree: sum.acceptedReadersDisagree + row.acceptedReadersDisagree,
    }),
    { cases: 0, accepted: 0, acceptedReadersAgree: 0, acceptedReadersDisagree: 0 },
  )
  console.log(JSON.stringify({ checkRoot, seed, count, byKind, total, examples }, null, 2))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
