/**
 * Finding an animation by name among however many an export holds (a million fit in 19 MB): the
 * picker lists at most MAX_LISTED_ANIMATIONS matches of what is typed, never one entry per
 * animation. Runs where the animations are, in the Web Worker.
 */
import type { Animation } from './animations'
import { nameOf } from './problems'

/** Matches listed at most. */
export const MAX_LISTED_ANIMATIONS = 50

/** An animation as the picker lists it. */
export interface AnimationChoice {
  /** Its position among the export's animations. */
  index: number
  label: string
}

/** The first matches of `query`, and how many animations match in all. */
export interface AnimationMatches {
  choices: AnimationChoice[]
  total: number
}

/** The animations whose name contains `query` (ignoring case); all of them for an empty query. */
export function findAnimations(animations: readonly Animation[], query: string): AnimationMatches {
  const wanted = query.trim().toLowerCase()
  const choices: AnimationChoice[] = []
  let total = 0
  for (const [index, animation] of animations.entries()) {
    if (wanted !== '' && !animation.name.toLowerCase().includes(wanted)) continue
    total++
    if (choices.length < MAX_LISTED_ANIMATIONS) choices.push({ index, label: labelOf(animation) })
  }
  return { choices, total }
}

function labelOf(animation: Animation): string {
  const frames = animation.frames.length
  return `${nameOf(animation.name)} (${frames} frame${frames === 1 ? '' : 's'})`
}
