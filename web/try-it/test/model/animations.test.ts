import { describe, expect, it } from 'vitest'
import { readAnimations, readCommand, type Animation } from '../../src/model/animations'
import { readDisplays, type Display } from '../../src/model/displays'
import { IDENTITY, lerpMatrix, type Matrix } from '../../src/model/matrix'
import { buildTimeline } from '../../src/model/timeline'
import { FIXTURES } from '../fixtures'

function contentOf(name: string): unknown {
  return (JSON.parse(FIXTURES[name]!) as { content: unknown }).content
}

function displaysOf(content: unknown): Display[] {
  const reading = readDisplays(content)
  if (!reading.ok) throw new Error(reading.message)
  return reading.displays
}

const translation = (m: Matrix) => [m[3], m[7], m[11]]
const moveTo = (x: number) => [1, 0, 0, x, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
const merge = (tag: string, x: number, ticks: number) =>
  `data merge entity @e[type=block_display,tag=${tag},limit=1] {transformation:[${moveTo(x).join('f,')}f],interpolation_duration:${ticks}}`

describe('readAnimations on the real exports', () => {
  it.each([
    ['animated-80-displays', 'default', 'Default', 78, 40],
    ['reading-41-displays', 'default', 'Default', 140, 71],
    ['stone-gate-136-displays', 'open', 'open', 100, 46],
  ])('%s: animation %s with its ticks and frames', (name, key, title, durationTicks, frames) => {
    const content = contentOf(name) as {
      datapack: { anim_keyframes: Record<string, Record<string, string[]>> }
    }
    const { animations, problems } = readAnimations(content)
    expect(problems).toEqual({ list: [], more: 0 })
    expect(animations).toHaveLength(1)
    const [animation] = animations as [Animation]
    expect(animation).toMatchObject({ key, name: title, durationTicks, stepTicks: 2 })
    expect(animation.frames).toHaveLength(frames)
    // Frame N plays at tick 2N; every pose names a display of the export.
    const tags = new Set(displaysOf(content).flatMap((d) => d.tags))
    for (const frame of animation.frames) {
      expect(frame.tick).toBe(frame.index * 2)
      for (const pose of frame.poses) {
        expect(tags.has(pose.tag)).toBe(true)
        expect(pose.matrix).toHaveLength(16)
      }
    }
    // Every transformation command of the export became a pose.
    const commands = Object.values(content.datapack.anim_keyframes[key]!).flat()
    const transforms = commands.filter((c) => c.includes('{transformation:'))
    expect(animation.frames.reduce((n, f) => n + f.poses.length, 0)).toBe(transforms.length)
  })

  it('reads a command: the tag of its selector, its matrix and interpolation', () => {
    const fixture = contentOf('stone-gate-136-displays') as {
      datapack: { anim_keyframes: { open: Record<string, string[]> } }
    }
    const command = fixture.datapack.anim_keyframes.open['1']![0]!
    expect(readCommand(command)).toEqual({
      tag: '[MODELSERVERTAG]_0',
      matrix: [0, 0, 1, 0.375, 0, 1, 0, 4.5, -1, 0, 0, 0.5, 0, 0, 0, 1],
      interpolationTicks: 2,
    })
    // Commands that move nothing are skipped; broken ones are reported.
    expect(readCommand('playsound minecraft:block.note_block.harp master @a')).toBeNull()
    expect(readCommand('data merge entity @e[tag=a] {item:{id:"minecraft:stone"}}')).toBeNull()
    expect(readCommand('data merge entity @e[tag=a] {transformation:[1f,2f]}')).toBe(
      'a data merge of a transformation of 2 numbers, not 16',
    )
    expect(readCommand('data merge entity @e[tag=a {transformation:[')).toContain('selector')
    expect(readCommand('data merge entity @e[tag=a] {transformation:[')).toContain('unreadable')
    expect(readCommand('data merge entity @e[tag=!a] {transformation:[]}')).toContain('no tag')
  })

  it('takes frame timing from meta, and falls back when meta is missing', () => {
    const keyframes = { walk: { '0': [merge('a', 0, 0)], '3': [merge('a', 1, 3)], x: [] } }
    const { animations, problems } = readAnimations({ datapack: { anim_keyframes: keyframes } })
    expect(animations).toMatchObject([
      { key: 'walk', name: 'walk', stepTicks: 1, durationTicks: 4 },
    ])
    expect(animations[0]?.frames.map((f) => f.tick)).toEqual([0, 3])
    expect(problems).toEqual({
      list: ['Animation walk: frame "x" is not a numbered list.'],
      more: 0,
    })
    expect(readAnimations(null)).toEqual({ animations: [], problems: { list: [], more: 0 } })
    expect(readAnimations({ datapack: { anim_keyframes: 'nope' } }).animations).toEqual([])
  })
})

describe('buildTimeline', () => {
  const displays: Display[] = ['a', 'b'].map((tag) => ({
    kind: 'block',
    name: 'minecraft:stone',
    properties: {},
    text: null,
    textColor: null,
    tags: [tag],
    matrix: IDENTITY,
    parent: null,
  }))
  const animation = (frames: Record<string, string[]>, stepTicks = 2): Animation =>
    readAnimations({
      datapack: { anim_keyframes: { go: frames } },
      meta: { animations: { go: { durationTicks: 20, stepTicks } } },
    }).animations[0]!

  it('interpolates each pose over interpolation_duration from where the display was', () => {
    const timeline = buildTimeline(
      animation({ '0': [merge('a', 0, 0)], '1': [merge('a', 4, 4)], '2': [merge('a', 8, 2)] }),
      displays,
    )
    const xAt = (tick: number) => translation(timeline.matricesAt(tick)[0]!)[0]
    expect([0, 2, 3, 4].map(xAt)).toEqual([0, 0, 1, 2])
    // Frame 2 (tick 4) starts from x=2, halfway through frame 1's move, and takes 2 ticks to 8.
    expect([5, 6, 20].map(xAt)).toEqual([5, 8, 8])
    // The display no pose names stays where passengers put it.
    expect(timeline.matricesAt(5)[1]).toBe(IDENTITY)
    expect(timeline.frameTicks).toEqual([0, 2, 4])
  })

  it('stays put before a display first moves, and clamps time to the animation', () => {
    const timeline = buildTimeline(animation({ '5': [merge('b', 10, 0)] }), displays)
    expect(translation(timeline.matricesAt(9)[1]!)).toEqual([0, 0, 0])
    expect(translation(timeline.matricesAt(10)[1]!)).toEqual([10, 0, 0])
    expect(translation(timeline.matricesAt(1e9)[1]!)).toEqual([10, 0, 0])
    expect(translation(timeline.matricesAt(-5)[1]!)).toEqual([0, 0, 0])
  })

  it('lets the last of two commands for one display in a frame win', () => {
    const timeline = buildTimeline(
      animation({ '1': [merge('a', 3, 0), merge('a', 7, 0)] }),
      displays,
    )
    expect(translation(timeline.matricesAt(2)[0]!)).toEqual([7, 0, 0])
  })

  it('gives the matrices of every frame played in order, whatever order ticks are asked in', () => {
    for (const name of ['stone-gate-136-displays', 'animated-80-displays', 'reading-41-displays']) {
      const content = contentOf(name)
      const model = displaysOf(content)
      const played = readAnimations(content).animations[0]!
      const timeline = buildTimeline(played, model)
      const ticks = Array.from({ length: played.durationTicks + 1 }, (_, t) => t)
      const order = [...ticks.toReversed(), ...ticks.filter((t) => t % 3 === 1), ...ticks]
      for (const t of order) {
        expect(timeline.matricesAt(t), `${name} tick ${t}`).toEqual(playedInOrder(played, model, t))
      }
    }
  })

  it('blends from where an unfinished blend had got to, chained', () => {
    const overlapping = animation({
      '0': [merge('a', 8, 4)],
      '1': [merge('a', 0, 4)],
      '2': [merge('a', 8, 4), merge('b', 2, 6)],
    })
    const timeline = buildTimeline(overlapping, displays)
    // Frame 1 (tick 2) starts from x=4, halfway to 8, and frame 2 (tick 4) from x=2.
    expect(translation(timeline.matricesAt(4)[0]!)[0]).toBe(2)
    for (const t of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      expect(timeline.matricesAt(t)).toEqual(playedInOrder(overlapping, displays, t))
    }
  })

  it('moves the real models: the gate opens, the animated model moves', () => {
    for (const name of ['stone-gate-136-displays', 'animated-80-displays', 'reading-41-displays']) {
      const content = contentOf(name)
      const model = displaysOf(content)
      const timeline = buildTimeline(readAnimations(content).animations[0]!, model)
      const start = timeline.matricesAt(0)
      const middle = timeline.matricesAt(timeline.durationTicks / 2)
      const moved = start.filter((m, i) => m.join() !== middle[i]!.join()).length
      expect(moved, name).toBeGreaterThan(0)
    }
  })
})

/**
 * Every display's matrix at `tick`, found the plain way: every frame up to it played in order,
 * each pose blending from where its display was at the frame's tick.
 */
function playedInOrder(animation: Animation, displays: readonly Display[], tick: number): Matrix[] {
  const t = Math.min(Math.max(tick, 0), Math.max(animation.durationTicks, 0))
  type Blend = { start: number; ticks: number; from: Matrix; to: Matrix }
  const at = (blend: Blend | undefined, i: number, when: number): Matrix => {
    if (blend === undefined) return displays[i]!.matrix
    if (blend.ticks <= 0) return blend.to
    return lerpMatrix(blend.from, blend.to, (when - blend.start) / blend.ticks)
  }
  const blends: (Blend | undefined)[] = displays.map(() => undefined)
  for (const frame of animation.frames) {
    if (frame.tick > t) break
    const before = [...blends]
    for (const pose of frame.poses) {
      for (const [i, display] of displays.entries()) {
        if (!display.tags.includes(pose.tag)) continue
        const from = at(before[i], i, frame.tick)
        blends[i] = { start: frame.tick, ticks: pose.interpolationTicks, from, to: pose.matrix }
      }
    }
  }
  return blends.map((blend, i) => at(blend, i, t))
}
