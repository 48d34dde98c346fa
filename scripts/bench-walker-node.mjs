/**
 * Throughput of the tag walker against the old decode/replaceAll/encode path, in Node, on the
 * real fixtures and on 20 MB synthetic documents. Checks that both give identical bytes.
 *
 *   npx node scripts/bench-walker-node.mjs
 */
import { build } from 'esbuild'
import { readFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const FIXTURES = '../../shared/fixtures'
const TAG = 'bde'
const CHUNK_BYTES = 64 * 1024
const SYNTHETIC_BYTES = 20 * 1000 * 1000
const MIN_ROUND_MS = 400
const ROUNDS = 5

const outdir = mkdtempSync(join(tmpdir(), 'bench-walker-'))
await build({
  entryPoints: [new URL('../src/exports/walker.ts', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  outfile: join(outdir, 'walker.mjs'),
  logLevel: 'warning',
})
const { TagWalker } = await import(join(outdir, 'walker.mjs'))

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function baseline(buf) {
  return encoder.encode(decoder.decode(buf).replaceAll('[MODELSERVERTAG]', TAG))
}

function walkWhole(buf, options) {
  const walker = new TagWalker(TAG, options)
  const out = walker.push(buf)
  walker.finish()
  return out
}

function walkChunked(buf, options) {
  const walker = new TagWalker(TAG, options)
  const parts = []
  for (let at = 0; at < buf.length; at += CHUNK_BYTES) {
    parts.push(walker.push(buf.subarray(at, at + CHUNK_BYTES)))
  }
  walker.finish()
  return parts
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/**
 * Best MB/s over a few rounds, each running `fn` for at least MIN_ROUND_MS. With `fresh`, each
 * call gets a new copy of the input, made outside the timing, as a stream hands over new chunks.
 */
function measure(buf, fn, fresh = false) {
  const copy = fresh ? new Uint8Array(buf.length) : buf
  let best = 0
  for (let round = 0; round < ROUNDS; round++) {
    let bytes = 0
    let elapsed = 0
    while (elapsed < MIN_ROUND_MS) {
      if (fresh) copy.set(buf)
      const start = performance.now()
      fn(copy)
      elapsed += performance.now() - start
      bytes += buf.length
    }
    best = Math.max(best, bytes / 1e6 / (elapsed / 1000))
  }
  return best
}

function sameBytes(a, b) {
  return a.length === b.length && Buffer.compare(a, b) === 0
}

/** Keyframe commands like the fixtures', a placeholder in every `every`-th. */
function commands(bytes, every) {
  const parts = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const tag = i % every === 0 ? `[MODELSERVERTAG]_${i % 500}` : `fixed_${i % 500}`
    const command = `data merge entity @e[type=item_display,tag=${tag},limit=1] {transformation:[0.5f,0f,0f,${i}f],interpolation_duration:0,text:'{\\"text\\":\\"${i}\\"}'}`
    parts.push(JSON.stringify(command))
    size += command.length + 8
  }
  return `{"content":{"datapack":{"anim_keyframes":{"default":{"0":[${parts.join(',')}]}}}}}`
}

/** Tag lists: a placeholder every 24 bytes or so. */
function denseTags(bytes) {
  const parts = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const tags = `Tags:[\\"[MODELSERVERTAG]_${i % 100}\\",\\"[MODELSERVERTAG]_root\\"]`
    parts.push(`"${tags}"`)
    size += tags.length + 3
  }
  return `{"content":{"passengers":[${parts.join(',')}]}}`
}

const inputs = []
for (const name of ['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays']) {
  const file = new URL(`${FIXTURES}/${name}.json`, import.meta.url)
  inputs.push([name, new Uint8Array(readFileSync(file))])
}
inputs.push(['synthetic-20MB-commands', encoder.encode(commands(SYNTHETIC_BYTES, 1))])
inputs.push(['synthetic-20MB-dense', encoder.encode(denseTags(SYNTHETIC_BYTES))])
inputs.push(['synthetic-20MB-sparse', encoder.encode(commands(SYNTHETIC_BYTES, 100_000))])

console.log(
  `node ${process.version}, tag '${TAG}', chunks of ${CHUNK_BYTES} bytes; MB/s, best of ${ROUNDS}`,
)
const REUSE = { reuseInput: true }
const variants = [
  ['whole', (buf) => walkWhole(buf), false],
  ['chunked', (buf) => walkChunked(buf), false],
  ['whole-reuse', (buf) => walkWhole(buf, REUSE), true],
  ['chunk-reuse', (buf) => walkChunked(buf, REUSE), true],
]
console.log(
  'input'.padEnd(24),
  'bytes'.padStart(9),
  'baseline'.padStart(9),
  ...variants.map(([label]) => label.padStart(12)),
)
let allFast = true
for (const [name, buf] of inputs) {
  const expected = baseline(buf)
  const wrong = variants.filter(([, fn]) => !sameBytes(concat([fn(buf.slice())].flat()), expected))
  if (wrong.length > 0) {
    console.log(`${name}: OUTPUT DIFFERS (${wrong.map(([label]) => label).join(', ')})`)
    process.exitCode = 1
    continue
  }
  const base = measure(buf, baseline)
  const cells = variants.map(([, fn, fresh]) => {
    const speed = measure(buf, fn, fresh)
    allFast &&= speed >= 1.5 * base
    return `${speed.toFixed(0)} ${(speed / base).toFixed(2)}x`.padStart(12)
  })
  console.log(
    name.padEnd(24),
    String(buf.length).padStart(9),
    base.toFixed(0).padStart(9),
    ...cells,
  )
}
console.log(allFast ? 'walker >= 1.5x baseline on every input' : 'walker BELOW 1.5x on some input')
