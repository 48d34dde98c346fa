/**
 * Peak memory of streaming one synthetic export through a substitution engine, in Node with
 * `--expose-gc` (a child process of run.mjs per measurement, so no other work shares the heap).
 *
 *   node --expose-gc scripts/bench/memory/node.mjs '<json config>'   (prints one JSON object)
 *
 * Config: { casesModule, mode: 'splicer' | 'jsonSplicer' | 'replaceAll', synthetic, bytes }
 *
 * `splicer` and `jsonSplicer` pull 64 KiB chunks from a generator (the input never exists whole),
 * push each through the placeholder splicer or the JSON splicer (the substitution face's two engines) and drop the output, as a response
 * stream would. After every chunk the heap is sampled, then fully collected and sampled again:
 * the first sample is the peak with that chunk's garbage, the second what the engine keeps. `replaceAll` is baseline (a),
 * which needs the whole input: it gathers the same chunks, then decodes, replaces and encodes,
 * sampling after each step. Figures are bytes above the heap measured just before starting.
 */
const config = JSON.parse(process.argv[2])
const cases = await import(config.casesModule)

if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc')
const gc = globalThis.gc

/** JS heap plus memory outside it (typed array backing stores count in `external`). */
function used() {
  const m = process.memoryUsage()
  return { heap: m.heapUsed + m.external, rss: m.rss }
}

// Warm up the code paths on a small export first, so compiled code is not counted.
for (const chunk of cases.syntheticChunks(config.synthetic, 256 * 1024)) void chunk
cases.jsonSplicer('bde').push(new TextEncoder().encode('{"a":"b"}'))
cases.placeholderSplicer('bde').push(new TextEncoder().encode('{"a":"b"}'))
gc()
gc()
const base = used()
let peakWithGarbage = 0
let peakLive = 0
let peakRss = 0
let inputBytes = 0
let outputBytes = 0
let samples = 0

function sample(collect) {
  const now = used()
  peakWithGarbage = Math.max(peakWithGarbage, now.heap - base.heap)
  peakRss = Math.max(peakRss, now.rss - base.rss)
  if (collect) {
    gc()
    peakLive = Math.max(peakLive, used().heap - base.heap)
  }
  samples++
}

if (config.mode === 'jsonSplicer' || config.mode === 'splicer') {
  const engine =
    config.mode === 'jsonSplicer' ? cases.jsonSplicer('bde') : cases.placeholderSplicer('bde')
  for (const chunk of cases.syntheticChunks(config.synthetic, config.bytes)) {
    inputBytes += chunk.length
    outputBytes += engine.push(chunk).length
    sample(true)
  }
  engine.finish()
} else {
  // Each step drops what it no longer needs, as a careful implementation would.
  let chunks = []
  for (const chunk of cases.syntheticChunks(config.synthetic, config.bytes)) {
    inputBytes += chunk.length
    chunks.push(chunk)
    sample(false)
  }
  sample(true)
  // Sampled while a step's input and output are both alive, then the input is dropped.
  let whole = cases.concat(chunks)
  sample(true)
  chunks = null
  let text = new TextDecoder().decode(whole)
  sample(true)
  whole = null
  let replaced = text.replaceAll('[MODELSERVERTAG]', 'bde')
  sample(true)
  text = null
  const out = new TextEncoder().encode(replaced)
  sample(true)
  replaced = null
  outputBytes = out.length
}

process.stdout.write(
  JSON.stringify({
    ...config,
    inputBytes,
    outputBytes,
    samples,
    peakWithGarbage,
    peakLive,
    peakRss,
  }),
)
