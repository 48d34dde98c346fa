import { describe, expect, it } from 'vitest'
import { readModel } from '../../src/model/model-reading'
import { animationFor, viewOf } from '../../src/model/model-view'
import { MAX_DRAWN_DISPLAYS } from '../../src/model/placement'
import { FIXTURES } from '../fixtures'

const display = (tag: string, x: number) =>
  `{id:"minecraft:block_display",transformation:[1f,0f,0f,${x}f,0f,1f,0f,0f,0f,0f,1f,0f,0f,0f,0f,1f],Tags:["${tag}"]}`

describe('viewOf', () => {
  it('gives a real export whole: every display drawn, its kinds and animations counted', () => {
    const content = (JSON.parse(FIXTURES['stone-gate-136-displays']!) as { content: unknown })
      .content
    const view = viewOf(readModel(content))
    if (!view.ok) throw new Error(view.message)
    expect(view.displayCount).toBe(136)
    expect(view.drawn).toHaveLength(136)
    expect(view.animationCount).toBe(1)
    expect(view.problems).toEqual({ list: [], more: 0 })
  })

  it('hands over at most the drawn displays, whatever the export holds', () => {
    const passengers = Array.from({ length: MAX_DRAWN_DISPLAYS + 1_000 }, (_, i) =>
      display('g', i % 100),
    )
    const view = viewOf(readModel({ passengers: [passengers.join(',')] }))
    if (!view.ok) throw new Error(view.message)
    expect(view.displayCount).toBe(MAX_DRAWN_DISPLAYS + 1_000)
    expect(view.kinds).toEqual({ block: MAX_DRAWN_DISPLAYS + 1_000, item: 0, text: 0 })
    expect(view.drawn).toHaveLength(MAX_DRAWN_DISPLAYS)
  })

  it('says why there is nothing to draw', () => {
    expect(viewOf(readModel({}))).toEqual({
      ok: false,
      message: 'This export has no passengers: there is no model to draw.',
    })
  })
})

describe('animationFor', () => {
  it('keeps the poses of tags a drawn display carries, and every frame', () => {
    const merge = (tag: string) =>
      `data merge entity @e[tag=${tag}] {transformation:[1f,0f,0f,1f,0f,1f,0f,0f,0f,0f,1f,0f,0f,0f,0f,1f]}`
    const read = readModel({
      passengers: [display('shown', 0)],
      datapack: {
        anim_keyframes: { a: { 0: [merge('shown'), merge('absent')], 1: [merge('absent')] } },
      },
    })
    const view = viewOf(read)
    if (!view.ok) throw new Error(view.message)
    const animation = animationFor(read.animations.animations[0]!, view.drawn)
    expect(animation.frames.map((f) => f.poses.map((p) => p.tag))).toEqual([['shown'], []])
  })
})
