import { vi } from 'vitest'

/** A line the service logged: the one object it handed to `console.log` or `console.error`. */
export type LogLine = Record<string, unknown> & { level: 'log' | 'error' }

/**
 * Captures, silenced, what the service logs from now on (both levels, in order): each line's
 * fields with the level it was logged at, and the objects as logged. `vi.restoreAllMocks()`
 * ends the capture.
 */
export function captureLog(): { lines: () => LogLine[]; logged: () => unknown[] } {
  const logged: unknown[] = []
  const lines: LogLine[] = []
  for (const level of ['log', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      const line = args.length === 1 && typeof args[0] === 'object' ? args[0] : { args }
      logged.push(line)
      lines.push({ ...(line as Record<string, unknown>), level })
    })
  }
  return { lines: () => lines, logged: () => logged }
}

/** An Analytics Engine dataset that keeps what is written to it. */
export function recordingDataset(): {
  dataset: AnalyticsEngineDataset
  points: AnalyticsEngineDataPoint[]
} {
  const points: AnalyticsEngineDataPoint[] = []
  return { dataset: { writeDataPoint: (point) => void points.push(point!) }, points }
}
