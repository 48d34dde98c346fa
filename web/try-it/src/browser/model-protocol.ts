/**
 * What the page and the model's Web Worker say to each other. The worker reads the model once
 * and keeps it; the page gets a bounded view of it (model-view.ts) and asks for more as a person
 * needs it: the animations matching a search, then the one to play.
 */
import type { Animation } from '../model/animations.js'
import type { AnimationMatches } from '../model/animation-search.js'
import type { ModelView } from '../model/model-view.js'

/** The parts of an export's content that hold its model (model-reading.ts). */
export type ModelField = 'passengers' | 'anim_keyframes' | 'animations'

/**
 * What the page asks. The model's parts come first, in slices (model-handoff.ts), and are not
 * answered; `read` reads what came.
 */
export type ModelQuestion =
  | { kind: 'value'; field: ModelField; value: unknown }
  | { kind: 'items'; field: ModelField; items: unknown[] }
  | { kind: 'entries'; field: ModelField; entries: [string, unknown][] }
  | { kind: 'read' }
  | { kind: 'find'; query: string }
  | { kind: 'animation'; index: number }

/** A question, numbered so that its answer can be told apart. */
export type ModelRequest = ModelQuestion & { id: number }

/** The worker's answer to the request of the same id. */
export type ModelAnswer =
  | { id: number; kind: 'read'; view: ModelView }
  | { id: number; kind: 'find'; matches: AnimationMatches }
  | { id: number; kind: 'animation'; animation: Animation | null }
