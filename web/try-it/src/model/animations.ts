/**
 * An export's animations: `content.datapack.anim_keyframes` maps an animation to its frames and
 * each frame to commands such as
 * `data merge entity @e[type=item_display,tag=gate_7,limit=1] {transformation:[16 floats],interpolation_duration:2}`,
 * and `content.meta.animations` gives each one's `durationTicks` and `stepTicks` (frame N plays
 * at tick N * stepTicks). Only what moves a display is kept: per frame, the tag each command
 * selects and the matrix it sets, with its interpolation.
 */
import { readMatrix, type Matrix } from './matrix'
import { nameOf, noProblems, noteProblem, type Problems } from './problems'
import { isCompound, readSnbt } from './snbt'

/** One display's target in a frame: reach `matrix` over `interpolationTicks` from `tick`. */
export interface Pose {
  tag: string
  matrix: Matrix
  interpolationTicks: number
}

export interface Frame {
  /** The frame's key in anim_keyframes. */
  index: number
  /** When it plays: index * stepTicks. */
  tick: number
  poses: Pose[]
}

export interface Animation {
  /** The key in anim_keyframes and meta.animations. */
  key: string
  /** The name to show (meta's `name`, else the key). */
  name: string
  durationTicks: number
  stepTicks: number
  /** In tick order. */
  frames: Frame[]
}

export interface AnimationsReading {
  animations: Animation[]
  problems: Problems
}

const DATA_MERGE = /^\s*\/?data\s+merge\s+entity\s+/

/** Reads every animation of an export's `content`. Never throws; unreadable parts are skipped. */
export function readAnimations(content: unknown): AnimationsReading {
  const problems = noProblems()
  const record = (content ?? {}) as {
    datapack?: { anim_keyframes?: unknown }
    meta?: { animations?: unknown }
  }
  const keyframes = objectOr(record.datapack?.anim_keyframes)
  const meta = objectOr(record.meta?.animations)
  const animations: Animation[] = []
  for (const [key, frames] of Object.entries(keyframes)) {
    const info = objectOr(meta[key])
    const stepTicks = positive(info['stepTicks'], 1)
    const read = readFrames(objectOr(frames), stepTicks, key, problems)
    const lastTick = read.length === 0 ? 0 : read[read.length - 1]!.tick + stepTicks
    animations.push({
      key,
      name: typeof info['name'] === 'string' && info['name'] !== '' ? info['name'] : key,
      durationTicks: positive(info['durationTicks'], lastTick),
      stepTicks,
      frames: read,
    })
  }
  return { animations, problems }
}

function readFrames(
  frames: Record<string, unknown>,
  stepTicks: number,
  animation: string,
  problems: Problems,
): Frame[] {
  const read: Frame[] = []
  for (const [key, commands] of Object.entries(frames)) {
    const index = Number(key)
    if (!Number.isInteger(index) || index < 0 || !Array.isArray(commands)) {
      noteProblem(
        problems,
        `Animation ${nameOf(animation)}: frame "${nameOf(key)}" is not a numbered list.`,
      )
      continue
    }
    const poses: Pose[] = []
    for (const command of commands) {
      if (typeof command !== 'string') continue
      const pose = readCommand(command)
      if (typeof pose === 'string') {
        noteProblem(problems, `Animation ${nameOf(animation)}, frame ${index}: ${pose}.`)
      } else if (pose !== null) {
        poses.push(pose)
      }
    }
    read.push({ index, tick: index * stepTicks, poses })
  }
  return read.sort((a, b) => a.index - b.index)
}

/** The pose a command sets; null for commands that move nothing; a string saying what is wrong. */
export function readCommand(command: string): Pose | null | string {
  const start = DATA_MERGE.exec(command)
  if (start === null) return null
  const selector = readSelector(command, start[0].length)
  if (selector === null) return 'a data merge without a readable @e[...] selector'
  const reading = readSnbt(command.slice(selector.end))
  if (!reading.ok) return `unreadable SNBT in a data merge (${reading.message})`
  if (!isCompound(reading.value)) return 'a data merge of something other than a compound'
  const transformation = reading.value['transformation']
  if (transformation === undefined) return null
  if (selector.tag === null) return 'a data merge of a transformation that selects no tag'
  const matrix = readMatrix(transformation)
  if (typeof matrix === 'string') return `a data merge of ${matrix}`
  const duration = reading.value['interpolation_duration']
  return {
    tag: selector.tag,
    matrix,
    interpolationTicks: typeof duration === 'number' && duration > 0 ? Math.floor(duration) : 0,
  }
}

/** The first positive `tag=` of the selector at `at`, and where the selector ends. */
function readSelector(command: string, at: number): { tag: string | null; end: number } | null {
  if (!command.startsWith('@e[', at)) return null
  // Brackets nest: before substitution a tag reads `tag=[MODELSERVERTAG]_7`.
  let depth = 0
  let end = -1
  for (let i = at + 2; i < command.length; i++) {
    const char = command[i]
    if (char === '[') depth++
    else if (char === ']' && --depth === 0) {
      end = i + 1
      break
    }
  }
  if (end === -1) return null
  const inside = command.slice(at + 3, end - 1)
  const tag = /(?:^|,)\s*tag\s*=\s*([^,!\s][^,\s]*)/.exec(inside)
  return { tag: tag?.[1] ?? null, end }
}

function objectOr(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback
}
