/**
 * An animation as a function of time: where every display is at any tick. Each frame's pose
 * starts at its tick and reaches its matrix `interpolationTicks` later, from wherever the
 * display was at that moment, as a display entity interpolates after `data merge`. Before its
 * first pose a display stands where `passengers` put it. Matrices are blended element by
 * element, which is close to Minecraft's decomposed blend at a frame's short steps.
 *
 * Nothing is computed per display and frame up front: an export can hold displays x frames
 * poses (10,000 displays sharing a tag, moved in each of 10,000 frames, fit in 2.5 MB). The
 * timeline keeps, per tag, the frames that pose it (as many entries as the export has poses),
 * and a display's matrix at a tick is found when that tick is shown: its latest pose by then,
 * blended from where the display was when that pose began, which is found the same way while
 * blends overlap, at most MAX_BLEND_CHAIN deep.
 */
import type { Animation, Pose } from './animations'
import type { Display } from './displays'
import { lerpMatrix, type Matrix } from './matrix'

/**
 * Overlapping blends followed back at most: a pose that starts while this many earlier blends
 * are all still under way starts from the oldest one's target, not from its running blend.
 */
export const MAX_BLEND_CHAIN = 64

/** A pose of a tag in a frame: its frame's position in tick order and its place in the frame. */
interface TagPose {
  frame: number
  order: number
  pose: Pose
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
  const frameTicks = animation.frames.map((f) => f.tick)
  const posesByTag = new Map<string, TagPose[]>()
  for (const [frame, { poses }] of animation.frames.entries()) {
    for (const [order, pose] of poses.entries()) {
      const list = posesByTag.get(pose.tag)
      if (list === undefined) posesByTag.set(pose.tag, [{ frame, order, pose }])
      else list.push({ frame, order, pose })
    }
  }
  const tagsOf = displays.map((d) => [...new Set(d.tags)])

  /** The display's last pose in frames [0, lastFrame], or undefined. */
  function latestPose(i: number, lastFrame: number): TagPose | undefined {
    // Poses of several tags: the latest frame wins, and in one frame the later command.
    let best: TagPose | undefined
    for (const tag of tagsOf[i]!) {
      const found = lastAtOrBefore(posesByTag.get(tag) ?? [], lastFrame)
      if (found === undefined) continue
      if (best === undefined || found.frame > best.frame) best = found
      else if (found.frame === best.frame && found.order > best.order) best = found
    }
    return best
  }

  /** Where display `i` is at `tick`, with the frames [0, lastFrame] played. */
  function matrixAt(i: number, tick: number, lastFrame: number, depth: number): Matrix {
    const latest = latestPose(i, lastFrame)
    if (latest === undefined) return displays[i]!.matrix
    const { pose } = latest
    const start = frameTicks[latest.frame]!
    const t = pose.interpolationTicks <= 0 ? 1 : (tick - start) / pose.interpolationTicks
    if (t >= 1) return pose.matrix
    const from =
      depth >= MAX_BLEND_CHAIN
        ? (latestPose(i, latest.frame - 1)?.pose.matrix ?? displays[i]!.matrix)
        : matrixAt(i, start, latest.frame - 1, depth + 1)
    return lerpMatrix(from, pose.matrix, t)
  }

  const durationTicks = Math.max(animation.durationTicks, 0)
  return {
    durationTicks,
    stepTicks: animation.stepTicks,
    frameTicks,
    matricesAt(tick) {
      const t = Math.min(Math.max(tick, 0), durationTicks)
      const lastFrame = playedBy(frameTicks, t) - 1
      return displays.map((_, i) => matrixAt(i, t, lastFrame, 0))
    },
  }
}

/** The last of `poses` (in frame order) in frames [0, lastFrame]; in a frame, the later one. */
function lastAtOrBefore(poses: readonly TagPose[], lastFrame: number): TagPose | undefined {
  let low = 0
  let high = poses.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (poses[mid]!.frame <= lastFrame) low = mid + 1
    else high = mid
  }
  return low === 0 ? undefined : poses[low - 1]
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
