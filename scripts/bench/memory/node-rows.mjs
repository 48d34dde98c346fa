/**
 * The Node memory rows: peaks of streaming a synthetic export through each engine, measured by
 * memory/node.mjs (a child-process script, so its rows live here).
 */
import { kb, row, verdict } from '../lib/rows.mjs'

/** The rows of `r.memory`; `config.memory.sizes` are the small and the large export. */
export function memoryNodeRows(r, config) {
  if (!r.memory) return []
  const rows = []
  const mem = (mode, bytes) => r.memory.find((m) => m.mode === mode && m.bytes === bytes)
  const [small, large] = config.memory.sizes
  for (const bytes of [small, large]) {
    const a = mem('replaceAll', bytes)
    for (const engine of ['splicer', 'jsonSplicer']) {
      const w = mem(engine, bytes)
      rows.push(
        row(
          'memory',
          `${engine} peak while streaming ${bytes / 1e6} MB (dense), Node`,
          `${kb(w.peakLive)} live, ${kb(w.peakWithGarbage)} with garbage`,
          `(a) replaceAll ${kb(a.peakLive)} live`,
          w.peakLive / a.peakLive,
        ),
      )
    }
  }
  for (const engine of ['splicer', 'jsonSplicer']) {
    const ws = mem(engine, small)
    const wl = mem(engine, large)
    for (const [what, key] of [
      ['live', 'peakLive'],
      ['with garbage', 'peakWithGarbage'],
    ]) {
      const growth = wl[key] / ws[key]
      rows.push(
        row(
          'memory',
          `${engine} peak ${what}: ${large / 1e6} MB vs ${small / 1e6} MB export`,
          kb(wl[key]),
          kb(ws[key]),
          growth,
          '~1x (<= 1.25x)',
          verdict(growth <= 1.25),
        ),
      )
    }
  }
  return rows
}
