/**
 * Which displays the preview draws. A display whose transformation is not finite, or that stands
 * or stretches absurdly far beyond the rest of the model, is left out of the picture and of the
 * camera's framing and listed as a problem: one display moved by `1e300d` would otherwise frame
 * the camera so wide that the model vanishes. Past MAX_DRAWN_DISPLAYS, the rest are counted, not
 * drawn: the picture stays quick to build and to turn.
 */
import type { Display } from './displays'
import type { Matrix } from './matrix'
import { nameOf, noProblems, noteProblem, type Problems } from './problems'

/**
 * Displays drawn at most; the page says how many it drew of how many. Where WebGL runs in
 * software (SwiftShader), a frame of boxes costs about 50 microseconds each on top of 0.3 s, so
 * this keeps a frame of the largest model near half a second there; real models hold hundreds.
 */
export const MAX_DRAWN_DISPLAYS = 5_000
/** A display further than this from the middle of the model (in blocks, per axis) is left out. */
export const MAX_DISTANCE_BLOCKS = 1_000
/** A display scaled or sheared beyond this (any element of its 3x3 part) is left out. */
export const MAX_LINEAR_ELEMENT = 1_000

/** The displays to draw (indexes, in order), how many could have been, and what was left out. */
export interface Placement {
  drawn: number[]
  /** Displays that could be drawn, before the cap. */
  placeable: number
  /** Displays left out, in words (each display could have one, so they are bounded). */
  problems: Problems
}

/** Chooses the displays to draw. */
export function placeDisplays(displays: readonly Display[]): Placement {
  const middle = medianTranslation(displays)
  const placement: Placement = { drawn: [], placeable: 0, problems: noProblems() }
  for (const [i, display] of displays.entries()) {
    const fault = faultOf(display.matrix, middle)
    if (fault !== null) {
      noteProblem(
        placement.problems,
        `Display ${i} (${nameOf(display.tags[0] ?? 'untagged')}) ${fault}; left out of the picture.`,
      )
      continue
    }
    placement.placeable++
    if (placement.drawn.length < MAX_DRAWN_DISPLAYS) placement.drawn.push(i)
  }
  return placement
}

/** Whether a matrix can be drawn among the rest, or why not. */
function faultOf(m: Matrix, middle: readonly number[]): string | null {
  if (!m.every(Number.isFinite)) return 'has a transformation that is not a finite number'
  for (const row of [0, 1, 2]) {
    for (const column of [0, 1, 2]) {
      if (Math.abs(m[4 * row + column]!) > MAX_LINEAR_ELEMENT) {
        return `is scaled beyond ${MAX_LINEAR_ELEMENT}x`
      }
    }
    const distance = Math.abs(m[4 * row + 3]! - middle[row]!)
    if (distance > MAX_DISTANCE_BLOCKS) {
      return `stands ${distance.toPrecision(3)} blocks from the rest, beyond ${MAX_DISTANCE_BLOCKS}`
    }
  }
  return null
}

/**
 * The median translation per axis of the displays with finite ones (of the two middle values,
 * the nearer to the origin, so that of two displays the far one is the one left out): one far
 * display cannot move it.
 */
function medianTranslation(displays: readonly Display[]): number[] {
  return [3, 7, 11].map((element) => {
    const values = displays.map((d) => d.matrix[element]!).filter(Number.isFinite)
    if (values.length === 0) return 0
    values.sort((a, b) => a - b)
    const upper = values[values.length >> 1]!
    if (values.length % 2 === 1) return upper
    const lower = values[(values.length >> 1) - 1]!
    return Math.abs(lower) <= Math.abs(upper) ? lower : upper
  })
}
