/** The substitution engines' throughput inside workerd: inputs uploaded once, batches timed inside and outside. */
import { readFileSync } from 'node:fs'
import { expectOk } from '../lib/service-calls.mjs'
import { measureThroughput, median } from '../lib/stats.mjs'

/** `base` is the `substitution` Worker's address, `cases` the bundled lib/substitution-cases.ts. */
export async function substitutionInWorkerd(base, { cases, inputs, rounds, batchMs }) {
  const out = []
  for (const spec of inputs) {
    const input = spec.file
      ? new Uint8Array(readFileSync(spec.file))
      : cases.syntheticExport(spec.synthetic, spec.bytes)
    const name = encodeURIComponent(spec.name)
    await expectOk(fetch(`${base}/input?name=${name}`, { method: 'POST', body: input }))
    const check = await (await expectOk(fetch(`${base}/check?name=${name}`))).json()
    const clock = []
    const { iterations, mbps } = await measureThroughput({
      bytes: input.length,
      variants: cases.VARIANTS,
      rounds,
      minBatchMs: batchMs,
      async runBatch(variant, n) {
        const t0 = performance.now()
        const response = await expectOk(
          fetch(`${base}/run?name=${name}&variant=${variant}&iterations=${n}`),
        )
        const { ms } = await response.json()
        const outside = performance.now() - t0
        clock.push({ inside: ms, outside })
        // If workerd's clock did not advance (as in production), the outside time is all we have.
        return ms > 0 ? ms : outside
      },
    })
    const insideShare = median(clock.filter((c) => c.outside > 50).map((c) => c.inside / c.outside))
    out.push({ name: spec.name, check, iterations, mbps, insideClockShareOfOutside: insideShare })
  }
  return out
}
