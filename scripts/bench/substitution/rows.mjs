/**
 * The substitution section's rows: the substitution engines' throughput in workerd (substitution-worker.ts)
 * and in Node (substitution/node.mjs), each beside replaceAll and a streaming parser.
 */
import { kb, mb, row, verdict } from '../lib/rows.mjs'
import { median, pairedRatio } from '../lib/stats.mjs'

/** The substitution rows of `r.substitutionWorkerd` and `r.substitutionNode`. */
export function substitutionRows(r) {
  const rows = []
  for (const [env, list] of [
    ['workerd', r.substitutionWorkerd ?? []],
    ['Node', r.substitutionNode?.results ?? []],
  ]) {
    for (const input of list) {
      const m = Object.fromEntries(Object.entries(input.mbps).map(([k, v]) => [k, median(v)]))
      const size = input.check.bytes >= 1e6 ? '20 MB' : kb(input.check.bytes)
      const what = `${input.name.replace(/^synthetic-20MB-/, 'synthetic ')} (${size}), ${env}`
      const c = input.check
      const engine = c.readPathEngine
      const sameBytes = { splicer: c.splicerSameBytes, jsonSplicer: c.jsonSplicerSameBytes }
      const ra = pairedRatio(input.mbps[engine], input.mbps.replaceAll)
      const rb = pairedRatio(input.mbps[engine], input.mbps.streamparser)
      rows.push(
        row(
          'substitution',
          `${what}: read path (${engine})`,
          mb(m[engine]),
          `(a) replaceAll ${mb(m.replaceAll)}`,
          ra,
          '>= 1.5x',
          sameBytes[engine] ? verdict(ra >= 1.5) : 'FAIL',
        ),
        row(
          'substitution',
          `${what}: read path (${engine})`,
          mb(m[engine]),
          `(b) streamparser ${mb(m.streamparser)}`,
          rb,
          '>= 50x',
          c.streamparserSameParsed ? verdict(rb >= 50) : 'FAIL',
        ),
      )
      for (const other of ['splicer', 'jsonSplicer'].filter((name) => name !== engine)) {
        rows.push(
          row(
            'substitution',
            `${what}: ${other}${other === 'jsonSplicer' ? ' (escaped spellings)' : ''}`,
            mb(m[other]),
            `(a) replaceAll ${mb(m.replaceAll)}`,
            pairedRatio(input.mbps[other], input.mbps.replaceAll),
            '',
            sameBytes[other] ? '' : 'FAIL',
          ),
        )
      }
      if (env === 'workerd') {
        rows.push(
          row(
            'substitution',
            `${what}: read path (${engine}) vs a plain copy`,
            mb(m[engine]),
            `copy (Uint8Array.set into a fresh buffer) ${mb(m.copy)}`,
            pairedRatio(input.mbps[engine], input.mbps.copy),
          ),
          row(
            'substitution',
            `${what}: jsonSplicer as a TransformStream, 64 KiB / 4 KiB chunks`,
            `${mb(m.stream)} / ${mb(m.stream4k)}`,
            `jsonSplicer.push ${mb(m.jsonSplicer)}`,
            pairedRatio(input.mbps.stream4k, input.mbps.jsonSplicer),
            '',
            c.streamSameBytes ? '' : 'FAIL',
          ),
        )
      }
    }
  }
  return rows
}
