/**
 * Everything the preview needs read out of an export's content, in one call: its displays and
 * its animations. The page runs it in a Web Worker (browser/model-worker.ts), so that reading
 * 25 MB of SNBT never holds up the page; the parts of `content` it reads are few and named, so
 * that only they are copied to the worker.
 */
import { readAnimations, type AnimationsReading } from './animations'
import { readDisplays, type ModelReading } from './displays'
import { noProblems } from './problems'

/** What was read: the displays (or why none), and the animations with their problems. */
export interface ModelRead {
  displays: ModelReading
  animations: AnimationsReading
}

/** The parts of an export's `content` that hold its model: passengers and animations. */
export function modelPartsOf(content: unknown): unknown {
  const record = isRecord(content) ? content : {}
  const datapack = isRecord(record['datapack']) ? record['datapack'] : {}
  const meta = isRecord(record['meta']) ? record['meta'] : {}
  return {
    passengers: record['passengers'],
    datapack: { anim_keyframes: datapack['anim_keyframes'] },
    meta: { animations: meta['animations'] },
  }
}

/** Reads the model of `content` (or of its model parts). Never throws. */
export function readModel(content: unknown): ModelRead {
  const displays = readDisplays(content)
  const animations = displays.ok
    ? readAnimations(content)
    : { animations: [], problems: noProblems() }
  return { displays, animations }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
