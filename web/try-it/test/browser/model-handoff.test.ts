import { describe, expect, it } from 'vitest'
import { addSlice, contentOf, emptyParts } from '../../src/browser/model-assembly'
import { sliceModelParts, SLICE_ENTRIES } from '../../src/browser/model-handoff'
import type { ModelField } from '../../src/browser/model-protocol'
import { readModel } from '../../src/model/model-reading'
import { FIXTURES } from '../fixtures'

function handOff(fields: Record<ModelField, unknown>) {
  const slices = [...sliceModelParts(fields)]
  const parts = emptyParts()
  for (const slice of slices) {
    if (slice.kind === 'read' || slice.kind === 'find' || slice.kind === 'animation') {
      throw new Error(`not a slice: ${slice.kind}`)
    }
    addSlice(parts, slice)
  }
  return { slices, parts }
}

describe('the hand-off of the model in slices', () => {
  it('puts a real export back together as it was', () => {
    const { content } = JSON.parse(FIXTURES['animated-80-displays']!) as {
      content: {
        passengers: unknown
        datapack: { anim_keyframes: unknown }
        meta: { animations: unknown }
      }
    }
    const { parts } = handOff({
      passengers: content.passengers,
      anim_keyframes: content.datapack.anim_keyframes,
      animations: content.meta.animations,
    })
    expect(parts.passengers).toEqual(content.passengers)
    expect(parts.anim_keyframes).toEqual(content.datapack.anim_keyframes)
    expect(readModel(contentOf(parts))).toEqual(readModel(content))
  })

  it('cuts large lists and objects into slices of a bounded size', () => {
    const keyframes: Record<string, unknown> = {}
    for (let i = 0; i < 2.5 * SLICE_ENTRIES; i++) keyframes[`a${i}`] = { 0: [] }
    const list = Array.from({ length: SLICE_ENTRIES + 1 }, (_, i) => `p${i}`)
    const { slices, parts } = handOff({
      passengers: list,
      anim_keyframes: keyframes,
      animations: 'not an object',
    })
    for (const slice of slices) {
      if (slice.kind === 'items') expect(slice.items.length).toBeLessThanOrEqual(SLICE_ENTRIES)
      if (slice.kind === 'entries') expect(slice.entries.length).toBeLessThanOrEqual(SLICE_ENTRIES)
    }
    expect(slices.filter((s) => s.kind === 'entries')).toHaveLength(4)
    expect(parts.passengers).toEqual(list)
    expect(Object.keys(parts.anim_keyframes as object)).toHaveLength(2.5 * SLICE_ENTRIES)
    expect(parts.animations).toBe('not an object')
  })

  it('keeps an empty object an object, and a key like __proto__ a key', () => {
    const keyframes = JSON.parse('{"__proto__": {"0": []}}') as Record<string, unknown>
    const { parts } = handOff({ passengers: undefined, anim_keyframes: keyframes, animations: {} })
    expect(Object.keys(parts.anim_keyframes as object)).toEqual(['__proto__'])
    expect(parts.animations).toEqual({})
    expect(parts.passengers).toBeUndefined()
  })
})
