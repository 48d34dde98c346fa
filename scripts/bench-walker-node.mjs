/**
 * Throughput of the tag walker against the old decode/replaceAll/encode path, in Node, on the
 * real fixtures and on 20 MB synthetic documents; checks that both give identical bytes.
 *
 *   npx node scripts/bench-walker-node.mjs [rounds]
 *
 * Shared machines are noisy: each round times the baseline and every walker variant back to
 * back, and the table shows medians over the rounds (the ratio is the median of the per-round
 * ratios, so slow phases of the machine hit both sides alike).
 */
import { build } from 'esbuild'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const TAG = 'bde'
const CHUNK_BYTES = 64 * 1024
const SYNTHETIC_BYTES = 20 * 1000 * 1000
const ROUNDS = Number(process.argv[2] ?? 9)
const MIN_SLICE_MS = 120

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
  return [out]
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
 * MB/s of `fn` over at least MIN_SLICE_MS. With `fresh`, each call gets its own copy of the
 * input, made outside the timing, as a stream hands over chunks nobody else reads.
 */
function measure(buf, fn, fresh) {
  const input = fresh ? new Uint8Array(buf.length) : buf
  let bytes = 0
  let elapsed = 0
  while (elapsed < MIN_SLICE_MS || bytes < 2 * buf.length) {
    if (fresh) input.set(buf)
    const start = performance.now()
    fn(input)
    elapsed += performance.now() - start
    bytes += buf.length
  }
  return bytes / 1e6 / (elapsed / 1000)
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/**
 * Keyframe commands shaped like the fixtures' (and like scripts/bench/walker-cases.ts): `dense`
 * has three placeholders a command, `sparse` one every 10,000 commands amid float matrices.
 */
function keyframes(kind, bytes) {
  const frames = []
  let size = 0
  for (let n = 0; size < bytes;) {
    const commands = []
    for (let k = 0; k < 100; k++, n++) commands.push(JSON.stringify(command(kind, n)))
    const frame = `"${frames.length}":[${commands.join(',')}]`
    frames.push(frame)
    size += frame.length + 1
  }
  return `{"content":{"datapack":{"anim_keyframes":{"default":{${frames.join(',')}}}},"version":"1.21.4"}}`
}

function command(kind, n) {
  const entity = n % 500
  const tag = `[MODELSERVERTAG]_${entity}`
  if (kind === 'dense') {
    return `execute as @e[tag=${tag},limit=1] run data merge entity @s {Tags:["${tag}","[MODELSERVERTAG]_root"]}`
  }
  const matrix = Array.from({ length: 12 }, (_, k) => (Math.sin(n * 12 + k) * 0.9).toFixed(10))
  return `data merge entity @e[type=item_display,tag=${n % 10_000 === 0 ? tag : `fixed_${entity}`},distance=..1,limit=1,sort=nearest] {transformation:[${matrix.join('f,')}f,0f,0f,0f,1f],interpolation_duration:2,start_interpolation:0}`
}

/** SNBT tag lists in one long string: a placeholder every 24 bytes or so. */
function tagLists(bytes) {
  const parts = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const tags = `{Tags:[\\"[MODELSERVERTAG]_${i % 100}\\",\\"[MODELSERVERTAG]_root\\"]}`
    parts.push(tags)
    size += tags.length
  }
  return `{"content":{"passengers":"[${parts.join(',')}]"}}`
}

const inputs = []
for (const name of ['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays']) {
  const file = new URL(`../../shared/fixtures/${name}.json`, import.meta.url)
  inputs.push([name, new Uint8Array(readFileSync(file))])
}
inputs.push(['synthetic-20MB-dense', encoder.encode(keyframes('dense', SYNTHETIC_BYTES))])
inputs.push(['synthetic-20MB-sparse', encoder.encode(keyframes('sparse', SYNTHETIC_BYTES))])
inputs.push(['synthetic-20MB-taglists', encoder.encode(tagLists(SYNTHETIC_BYTES))])

const REUSE = { reuseInput: true }
const variants = [
  ['whole', (buf) => walkWhole(buf), false],
  ['chunked', (buf) => walkChunked(buf), false],
  ['whole-reuse', (buf) => walkWhole(buf, REUSE), true],
  ['chunk-reuse', (buf) => walkChunked(buf, REUSE), true],
]

console.log(
  `node ${process.version}, tag '${TAG}', chunks of ${CHUNK_BYTES} bytes, ${ROUNDS} rounds;`,
  'MB/s (median) and median ratio to the baseline',
)
console.log(
  'input'.padEnd(24),
  'bytes'.padStart(9),
  'baseline'.padStart(9),
  ...variants.map(([label]) => label.padStart(13)),
)
let slowest = Infinity
for (const [name, buf] of inputs) {
  const expected = baseline(buf)
  for (const [label, fn] of variants) {
    const out = concat(fn(buf.slice()))
    if (out.length !== expected.length || !out.every((byte, k) => byte === expected[k])) {
      throw new Error(`${name}: ${label} output differs from the baseline`)
    }
  }
  const speeds = { baseline: [] }
  const ratios = {}
  for (let round = 0; round < ROUNDS; round++) {
    const base = measure(buf, baseline, false)
    speeds.baseline.push(base)
    for (const [label, fn, fresh] of variants) {
      const speed = measure(buf, fn, fresh)
      ;(speeds[label] ??= []).push(speed)
      ;(ratios[label] ??= []).push(speed / base)
    }
  }
  const cells = variants.map(([label]) => {
    const ratio = median(ratios[label])
    slowest = Math.min(slowest, ratio)
    return `${median(speeds[label]).toFixed(0)} ${ratio.toFixed(2)}x`.padStart(13)
  })
  const base = median(speeds.baseline).toFixed(0).padStart(9)
  console.log(name.padEnd(24), String(buf.length).padStart(9), base, ...cells)
}
console.log(`slowest walker variant: ${slowest.toFixed(2)}x the baseline (target 1.5x)`)
