/**
 * The substitution benchmark in Node (a child process of run.mjs, so its heap and JIT state are its
 * own): checks the outputs, then measures each variant on each input, interleaved.
 *
 *   node scripts/bench/substitution/node.mjs '<json config>'   (prints one JSON object)
 *
 * Config: { casesModule, inputs: [{ name, file } | { name, synthetic, bytes }], rounds, minBatchMs }
 */
import { readFileSync } from 'node:fs'
import { measureThroughput } from '../lib/stats.mjs'

const config = JSON.parse(process.argv[2])
const cases = await import(config.casesModule)

const results = []
for (const spec of config.inputs) {
  const input = spec.file
    ? new Uint8Array(readFileSync(spec.file))
    : cases.syntheticExport(spec.synthetic, spec.bytes)
  const check = await cases.checkOutputs(input)
  console.error(`[bench] substitution in Node: ${spec.name}`)
  const { iterations, mbps } = await measureThroughput({
    bytes: input.length,
    variants: cases.VARIANTS,
    rounds: config.rounds,
    minBatchMs: config.minBatchMs,
    async runBatch(variant, n) {
      let sink = 0
      const start = performance.now()
      for (let i = 0; i < n; i++) {
        for (const part of await cases.runVariant(variant, input)) sink += part.length
      }
      const ms = performance.now() - start
      if (sink === 0) throw new Error(`${variant} gave no output`)
      return ms
    },
  })
  results.push({ name: spec.name, check, iterations, mbps })
}
process.stdout.write(JSON.stringify({ node: process.version, results }))
