/**
 * What a person feels while the page works: how long an input waits for its answer. From Node,
 * one after the other until stopped, a script call (`page.evaluate`, answered by the page's main
 * thread between its tasks) and a synthetic click on the page's header (a real input event
 * through Chromium's input pipeline, answered once the page has handled it). The longest task
 * alone misses time the main thread spends waiting on rendering; these do not.
 */
import type { Page } from 'playwright-core'

/** The worst round trips seen, in milliseconds, and how many of each were made. */
export interface InputRoundTrips {
  scriptMs: number
  clickMs: number
  scripts: number
  clicks: number
}

/** A probe under way. */
export interface InputProbe {
  /** Stops probing once the input in flight is answered; resolves to what was seen. */
  stop(): Promise<InputRoundTrips>
}

/** Pause between two inputs, so that the probe itself is no load. */
const GAP_MS = 50

/** Starts probing `page`, which must have a `header` element. */
export function probeInputs(page: Page): InputProbe {
  const seen: InputRoundTrips = { scriptMs: 0, clickMs: 0, scripts: 0, clicks: 0 }
  let stopped = false
  const timed = async (input: () => Promise<unknown>): Promise<number | null> => {
    const started = performance.now()
    try {
      await input()
    } catch {
      return null // the page navigated or closed meanwhile: no answer to time
    }
    return performance.now() - started
  }
  const loop = (async () => {
    while (!stopped) {
      const script = await timed(() => page.evaluate(() => document.readyState))
      if (script !== null) {
        seen.scriptMs = Math.max(seen.scriptMs, script)
        seen.scripts++
      }
      const click = await timed(() => page.mouse.click(4, 4))
      if (click !== null) {
        seen.clickMs = Math.max(seen.clickMs, click)
        seen.clicks++
      }
      await new Promise((resolve) => setTimeout(resolve, GAP_MS))
    }
  })()
  return {
    async stop() {
      stopped = true
      await loop
      return { ...seen, scriptMs: Math.round(seen.scriptMs), clickMs: Math.round(seen.clickMs) }
    },
  }
}
