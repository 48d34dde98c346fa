/**
 * The adversarial section's rows: each slow shape's publish time against the benign 24 MiB
 * publish of the same run (target at most 2x, median), and its memory against a bare KV put of
 * the same body in the same run, both after the same warm-up: its shape in 2 MB (memory.mjs).
 */
import { ms, row, verdict } from '../lib/rows.mjs'
import { BENIGN, BENIGN_OF, BENIGN_SMALL, SMALL_BYTES } from './shapes.mjs'

const MiB = 1024 * 1024
/**
 * A slow shape costs at most twice a benign publish of its size: no export can buy much more of
 * the check's time than its bytes do.
 */
export const TIME_TARGET = 2

/** What each shape is, in the table. */
export const SHAPE_CASES = {
  deepText: 'JSON text nested 63 deep in every command',
  selectors: 'every selector new (9,000 tags, 20 per selector)',
  nearFastPath: '1,500 tags that leave the fast path at their last',
  brackets: '2,500 bracketed strings in every command',
  deepSnbt: 'SNBT text components nested 63 deep in every command',
  nestedPassengers: 'passengers nested 30 deep around 1.9 MB of parts',
  nestedPassengersSmall: 'passengers nested 30 deep around 1.9 MB of parts, the body 2 MB',
}

const status = (f) => f.statuses.join('/') + (f.reasons.length > 0 ? ` ${f.reasons.join('/')}` : '')

/**
 * The ratio is workerd's CPU time: on two shared cores the wall time of a 24 MiB publish is
 * mostly the upload and waiting for a core (both shown as context), and CPU time is what a
 * Worker is limited and billed by.
 */
export function adversarialTimeRows(r) {
  if (!r.adversarial) return []
  const { timing } = r.adversarial
  const time = (f) => `${ms(f.cpuMs * 1000)} CPU (wall ${ms(f.wallMs * 1000)})`
  return Object.entries(SHAPE_CASES).map(([name, what]) => {
    const f = timing[name]
    const benign = timing[BENIGN_OF[name] ?? BENIGN]
    const size = BENIGN_OF[name] === undefined ? '24 MiB' : `${(SMALL_BYTES / 1e6).toFixed(0)} MB`
    return row(
      'adversarial',
      `${size} publish, ${what}: ${status(f)}; wall-time ratio ${f.ratio.toFixed(2)}x`,
      time(f),
      `a benign ${size} display model: ${time(benign)}`,
      f.cpuRatio,
      `<= ${TIME_TARGET.toFixed(2)}x`,
      verdict(f.cpuRatio <= TIME_TARGET),
    )
  })
}

/**
 * The memory bound's allowance beyond the KV put's growth and the body: one growth step of V8's
 * young generation (about 4 MiB, seen with `--trace-gc`), the granularity of a peak RSS in a
 * collected heap. A publish that keeps a few hundred KiB more across a collection may take one
 * more step; a body's worth of extra copies shows as more than one.
 */
const YOUNG_GENERATION_STEP = 4 * MiB

export function adversarialMemoryRows(r) {
  if (!r.adversarial) return []
  const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`
  const cases = {
    [BENIGN]: 'a benign display model',
    [BENIGN_SMALL]: 'a benign display model',
    ...SHAPE_CASES,
  }
  return Object.entries(cases).map(([name, what]) => {
    const c = r.adversarial.memory[name]
    const limit = c.baseline.growthBytes + c.bytes + YOUNG_GENERATION_STEP
    return row(
      'adversarial',
      `workerd peak RSS growth, ${mib(c.bytes)} publish, ${what} (${c.subject.status})`,
      mib(c.subject.growthBytes),
      `KV put of the body: ${mib(c.baseline.growthBytes)}`,
      c.subject.growthBytes / c.baseline.growthBytes,
      `<= baseline + body + 4 MiB (${mib(limit)})`,
      verdict(c.subject.growthBytes <= limit),
    )
  })
}
