/**
 * The report's row shape and the small formatters the sections' rows share. A row compares one
 * subject with its baseline from the same run; `ratio` is subject / baseline.
 */

/** One table row. */
export function row(area, what, subject, baseline, ratio, target = '', met = '') {
  return { area, case: what, subject, baseline, ratio, target, met }
}

export function verdict(ok) {
  return ok ? 'yes' : 'no'
}

export function mb(value) {
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} MB/s`
}

export function kb(bytes) {
  return `${Math.round(bytes / 1024).toLocaleString('en-US')} KiB`
}

export function ms(micros) {
  return `${(micros / 1000).toFixed(2)} ms`
}

/**
 * A load run's figures (lib/load.mjs's `loadWithCpu` summary) as one cell; the CPU spent in the pause
 * after a run (request/measure.mjs) is shown when there was any to speak of.
 */
export function requestRate(s) {
  return (
    `${Math.round(s.rps).toLocaleString('en-US')} req/s, p50 ${s.p50.toFixed(1)} ms, ` +
    `p99 ${s.p99.toFixed(1)} ms, ${ms(s.cpuMicros)} CPU/req` +
    (s.settleCpuMicros >= 5 ? ` (${ms(s.settleCpuMicros)} of it after the run)` : '')
  )
}

/** Whether every named load run of `summary` got only the statuses it expected. */
export function cleanRuns(summary, ...names) {
  return names.every((n) => summary[n].unexpected === 0)
}
