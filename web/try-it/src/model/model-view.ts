/**
 * What the page needs of a read model, computed where the model was read (the Web Worker) so that
 * what crosses to the page's thread is bounded whatever the export: the displays to draw (at most
 * MAX_DRAWN_DISPLAYS), counts, the problems (bounded), and how many animations there are. The
 * animations stay with the worker; the page asks for the one it plays (animationFor), and
 * searches their names there (animation-search.ts).
 */
import type { Animation } from './animations'
import type { Display, DisplayKind } from './displays'
import type { ModelRead } from './model-reading'
import { placeDisplays } from './placement'
import { joinProblems, type Problems } from './problems'

/** The model as the page shows it, or why there is none to draw. */
export type ModelView =
  | { ok: false; message: string }
  | {
      ok: true
      /** All the displays of the export, and per kind. */
      displayCount: number
      kinds: Record<DisplayKind, number>
      /** The displays to draw, in passenger order; an animation's matrices are indexed alike. */
      drawn: Display[]
      problems: Problems
      animationCount: number
    }

/** The view of a read model. */
export function viewOf(read: ModelRead): ModelView {
  const reading = read.displays
  if (!reading.ok) return { ok: false, message: reading.message }
  const kinds: Record<DisplayKind, number> = { block: 0, item: 0, text: 0 }
  for (const display of reading.displays) kinds[display.kind]++
  const placement = placeDisplays(reading.displays)
  return {
    ok: true,
    displayCount: reading.displays.length,
    kinds,
    drawn: placement.drawn.map((i) => reading.displays[i]!),
    problems: joinProblems(placement.problems, reading.problems, read.animations.problems),
    animationCount: read.animations.animations.length,
  }
}

/**
 * An animation with only the poses that move a drawn display: the rest would cross to the page
 * for nothing (an export can pose tags no drawn display carries, in every frame).
 */
export function animationFor(animation: Animation, drawn: readonly Display[]): Animation {
  const tags = new Set(drawn.flatMap((d) => d.tags))
  return {
    ...animation,
    frames: animation.frames.map((frame) => ({
      ...frame,
      poses: frame.poses.filter((pose) => tags.has(pose.tag)),
    })),
  }
}
