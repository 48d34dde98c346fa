/**
 * Everything the preview needs read out of an export's content, in one call: its displays and
 * its animations. The page runs it in the Web Worker that fetched the export
 * (browser/model-worker.ts), so that reading 25 MB of SNBT never holds up the page.
 */
import { readAnimations, type AnimationsReading } from './animations'
import { readDisplays, type ModelReading } from './displays'
import { noProblems } from './problems'

/** What was read: the displays (or why none), and the animations with their problems. */
export interface ModelRead {
  displays: ModelReading
  animations: AnimationsReading
}

/** Reads the model of an export's `content`. Never throws. */
export function readModel(content: unknown): ModelRead {
  const displays = readDisplays(content)
  const animations = displays.ok
    ? readAnimations(content)
    : { animations: [], problems: noProblems() }
  return { displays, animations }
}
