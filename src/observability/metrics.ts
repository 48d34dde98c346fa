/**
 * One Analytics Engine data point per request and per publish, from its log line. The columns
 * are positional (`blob1`, `double1`, ...), so their order is stable across versions, like a
 * storage schema: new columns go at the end. docs/operations.md lists them with the queries.
 *
 * The index (the sampling key) is the outcome: when Analytics Engine samples a busy minute, it
 * samples each outcome on its own, so a rare `storage_failed` keeps its own weight beside a
 * million `served`.
 */
import type { RequestLine } from './log'
import { logIncident } from './log'
import { statusClass } from './outcomes'

/** The blobs of a data point, in column order (`blob1` first). */
export const METRIC_BLOBS: ReadonlyArray<readonly [string, (line: RequestLine) => string]> = [
  ['route', (line) => line.event],
  ['outcome', (line) => line.outcome],
  ['status_class', (line) => statusClass(line.status)],
  ['refusing_window', (line) => line.window ?? ''],
  ['colo', (line) => line.colo ?? ''],
  ['limiter', (line) => line.limiter ?? ''],
  ['method', (line) => line.method],
  ['unsafe_rule', (line) => line.unsafe ?? ''],
  ['miss_penalty', (line) => line.penalty ?? ''],
  ['deprecated_use', (line) => line.deprecated?.join(' ') ?? ''],
]

/** The doubles of a data point, in column order (`double1` first). */
export const METRIC_DOUBLES: ReadonlyArray<readonly [string, (line: RequestLine) => number]> = [
  ['duration_ms', (line) => line.ms],
  ['bytes_sent', (line) => line.bytes],
  ['export_bytes', (line) => line.exportBytes ?? 0],
  ['tag_length', (line) => line.tagLength ?? 0],
  ['status', (line) => line.status],
]

/** Writes the data point of a request; without a dataset (local, tests) it does nothing. */
export function recordMetrics(
  dataset: AnalyticsEngineDataset | undefined,
  line: RequestLine,
): void {
  if (dataset === undefined) return
  try {
    dataset.writeDataPoint({
      indexes: [line.outcome],
      blobs: METRIC_BLOBS.map(([, value]) => value(line)),
      doubles: METRIC_DOUBLES.map(([, value]) => value(line)),
    })
  } catch (cause) {
    // A metric lost is not worth a failed request.
    logIncident('metrics_write_failed', 'writing the Analytics Engine data point failed', cause)
  }
}
