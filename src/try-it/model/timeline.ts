/**
 * An animation as a function of time: where every display is at any tick. Each frame's pose
 * starts at its tick and reaches its matrix `interpolationTicks` later, from wherever the
 * display was at that moment, as a display entity interpolates after `data merge`. Before its
 * first pose a display stands where `passengers` put it. Matrices are blended element by
 * element, which is close to Minecraft's decomposed blend at a frame's short steps.
 */
import type { Animation } from './animations'
import type { Display } from './displays'
import { lerpMatrix, type Matrix } from './matrix'

interface Segment {
  tick: number
  ticks: number
  from: Matrix
  to: Matrix
}

export interface Timeline {
  durationTicks: number
  stepTicks: number
  /** Ticks at which frames play. */
  frameTicks: number[]
  /** Every display's matrix at `tick` (clamped to the animation). */
  matricesAt(tick: number): Matrix[]
}

/** The timeline of an animation over these displays, matched by tag. */
export function buildTimeline(animation: Animation, displays: readonly Display[]): Timeline {
  const byTag = new Map<string, number[]>()
  for (const [i, display] of displays.entries()) {
    for (const tag of display.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), i])
  }
  const segments: Segment[][] = displays.map(() => [])
  for (const frame of animation.frames) {
    for (const pose of frame.poses) {
      for (const i of byTag.get(pose.tag) ?? []) {
        const own = segments[i]!
        // A later command for the same display in the same frame replaces the earlier one.
        if (own.at(-1)?.tick === frame.tick) own.pop()
        const from = own.length === 0 ? displays[i]!.matrix : matrixAt(own, frame.tick)
        own.push({ tick: frame.tick, ticks: pose.interpolationTicks, from, to: pose.matrix })
      }
    }
  }
  const durationTicks = Math.max(animation.durationTicks, 0)
  return {
    durationTicks,
    stepTicks: animation.stepTicks,
    frameTicks: animation.frames.map((f) => f.tick),
    matricesAt(tick) {
      const t = Math.min(Math.max(tick, 0), durationTicks)
      return segments.map((own, i) => (own.length === 0 ? displays[i]!.matrix : matrixAt(own, t)))
    },
  }
}

/** Where a display with these segments (in tick order) is at `tick`. */
function matrixAt(own: Segment[], tick: number): Matrix {
  let low = 0
  let high = own.length - 1
  if (tick < own[0]!.tick) return own[0]!.from
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if (own[mid]!.tick <= tick) low = mid
    else high = mid - 1
  }
  const segment = own[low]!
  if (segment.ticks <= 0) return segment.to
  return lerpMatrix(segment.from, segment.to, (tick - segment.tick) / segment.ticks)
}
