/**
 * Statistics and the interleaved measurement loop shared by the benchmark scripts. Subject and
 * baselines run in turns, their order rotated each round, so that noise from other tenants of
 * the machine falls on all of them; figures are medians over rounds, and a ratio is the median
 * of the per-round ratios (each from runs a few hundred ms apart).
 */

/** Median of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** The p-th percentile (0-100) of numbers, nearest rank. */
export function percentile(values, p) {
  if (values.length === 0) return NaN
  const sorted = Float64Array.from(values).sort()
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]
}

/** `list` rotated left by `by`. */
export function rotate(list, by) {
  const k = by % list.length
  return [...list.slice(k), ...list.slice(0, k)]
}

/**
 * Runs `run(name, round)` for every name in `names`, `rounds` times, in rotated order. Returns
 * `{ [name]: [value per round] }`.
 */
export async function interleave(names, rounds, run) {
  const results = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const name of rotate(names, round)) results[name].push(await run(name, round))
  }
  return results
}

/** Median over rounds of `a[i] / b[i]`. */
export function pairedRatio(a, b) {
  return median(a.map((value, i) => value / b[i]))
}

/**
 * Throughput of variants on one input, in MB/s per round. `runBatch(variant, iterations)`
 * returns the milliseconds a batch took. Each variant is calibrated first (which also warms
 * it up) so that one batch lasts about `minBatchMs`; a single run longer than that is a batch.
 */
export async function measureThroughput({ bytes, variants, rounds, minBatchMs, runBatch }) {
  const iterations = {}
  for (const variant of variants) {
    // Warm-up and calibration: at least three batches and twice the target time, doubling the
    // batch while it lasts under a quarter of the target, so the code is optimized first.
    let n = 1
    let ms = await runBatch(variant, n)
    let warm = ms
    for (let batches = 1; batches < 3 || warm < 2 * minBatchMs; batches++) {
      if (ms < minBatchMs / 4) n *= 2
      ms = await runBatch(variant, n)
      warm += ms
    }
    iterations[variant] = Math.max(1, Math.round((n * minBatchMs) / ms))
  }
  const mbps = await interleave(variants, rounds, async (variant) => {
    const ms = await runBatch(variant, iterations[variant])
    return (bytes * iterations[variant]) / 1e6 / (ms / 1000)
  })
  return { iterations, mbps }
}

/** Formats a ratio as `1.23x`. */
export function times(ratio) {
  if (!Number.isFinite(ratio)) return '-'
  return ratio >= 100
    ? `${ratio.toFixed(0)}x`
    : ratio >= 10
      ? `${ratio.toFixed(1)}x`
      : `${ratio.toFixed(2)}x`
}
