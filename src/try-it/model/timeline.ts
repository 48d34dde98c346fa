/**
 * An animation as a function of time: where every display is at any tick. Each frame's pose
 * starts at its tick and reaches its matrix `interpolationTicks` later, from wherever the
 * display was at that moment, as a display entity interpolates after `data merge`. Before its
 * first pose a display stands where `passengers` put it. Matrices are blended element by
 * element, which is close to Minecraft's decomposed blend at a frame's short steps.
 *
 * Frames are played forward on demand, not all up front: an export can hold displays x frames
 * poses (10,000 displays sharing a tag, moved in each of 10,000 frames, fit in 2.5 MB). The
 * state after a frame (each display's running blend) is kept for checkpoints only, spaced so that
 * all of them together hold at most MAX_KEPT_SEGMENTS entries; a tick is reached from the nearest
 * checkpoint before it, so a step costs at most one checkpoint interval of frames.
 */
import type { Animation } from './animations'
import type { Display } from './displays'
import { lerpMatrix, type Matrix } from './matrix'

/** One display's blend: from `from` at `tick` to `to` over `ticks` ticks. */
interface Segment {
  tick: number
  ticks: number
  from: Matrix
  to: Matrix
}

/** Each display's latest segment (undefined: not moved yet), after some frames. */
type State = readonly (Segment | undefined)[]

/** Entries (one per display) all checkpoints together may hold: 8 MB of references. */
export const MAX_KEPT_SEGMENTS = 1_000_000

export interface Timeline {
  durationTicks: number
  stepTicks: number
  /** Ticks at which frames play. */
  frameTicks: number[]
  /** Every display's matrix at `tick` (clamped to the animation). */
  matricesAt(tick: number): Matrix[]
}

/**
 * The timeline of an animation over these displays, matched by tag; its checkpoints hold at most
 * `keptSegments` entries.
 */
export function buildTimeline(
  animation: Animation,
  displays: readonly Display[],
  keptSegments = MAX_KEPT_SEGMENTS,
): Timeline {
  const byTag = tagIndex(displays)
  const frames = animation.frames
  const interval = Math.max(1, Math.ceil((frames.length * displays.length) / keptSegments))
  // checkpoints[k]: the state after frames [0, k * interval).
  const checkpoints: State[] = [displays.map(() => undefined)]
  // The last state reached, and how many frames it has played.
  let current: { played: number; state: (Segment | undefined)[] } = {
    played: 0,
    state: [...checkpoints[0]!],
  }

  function stateAfter(played: number): State {
    const k = Math.min(Math.floor(played / interval), checkpoints.length - 1)
    if (played < current.played || k * interval > current.played) {
      current = { played: k * interval, state: [...checkpoints[k]!] }
    }
    while (current.played < played) {
      apply(frames[current.played]!, current.state)
      current.played++
      const k = current.played / interval
      if (Number.isInteger(k) && k === checkpoints.length) checkpoints.push([...current.state])
    }
    return current.state
  }

  function apply(frame: Animation['frames'][number], state: (Segment | undefined)[]): void {
    // Every pose of a frame starts from where its display was before the frame: a later
    // command for the same display in the same frame replaces the earlier one.
    const before = new Map<number, Segment | undefined>()
    for (const pose of frame.poses) {
      for (const i of byTag.get(pose.tag) ?? []) {
        if (!before.has(i)) before.set(i, state[i])
        const from = matrixOf(before.get(i), displays[i]!, frame.tick)
        state[i] = { tick: frame.tick, ticks: pose.interpolationTicks, from, to: pose.matrix }
      }
    }
  }

  const durationTicks = Math.max(animation.durationTicks, 0)
  const frameTicks = frames.map((f) => f.tick)
  return {
    durationTicks,
    stepTicks: animation.stepTicks,
    frameTicks,
    matricesAt(tick) {
      const t = Math.min(Math.max(tick, 0), durationTicks)
      const state = stateAfter(playedBy(frameTicks, t))
      return state.map((segment, i) => matrixOf(segment, displays[i]!, t))
    },
  }
}

/** The displays of each tag, in order, built in one pass. */
export function tagIndex(displays: readonly Display[]): Map<string, number[]> {
  const byTag = new Map<string, number[]>()
  for (const [i, display] of displays.entries()) {
    for (const tag of display.tags) {
      const list = byTag.get(tag)
      if (list === undefined) byTag.set(tag, [i])
      else if (list[list.length - 1] !== i) list.push(i)
    }
  }
  return byTag
}

/** How many frames (in tick order) have started by `tick`. */
function playedBy(frameTicks: readonly number[], tick: number): number {
  let low = 0
  let high = frameTicks.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (frameTicks[mid]! <= tick) low = mid + 1
    else high = mid
  }
  return low
}

/** Where a display is at `tick`, given its latest segment by then. */
function matrixOf(segment: Segment | undefined, display: Display, tick: number): Matrix {
  if (segment === undefined) return display.matrix
  if (segment.ticks <= 0) return segment.to
  return lerpMatrix(segment.from, segment.to, (tick - segment.tick) / segment.ticks)
}
