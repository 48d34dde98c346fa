import { describe, expect, it } from 'vitest'
import { boxOf, colorOf } from '../../src/model/appearance'
import { readDisplays } from '../../src/model/displays'
import { FIXTURES } from '../fixtures'

const block = (name: string, properties: Record<string, string> = {}) =>
  boxOf({ kind: 'block', name, properties })
const item = (name: string) => boxOf({ kind: 'item', name, properties: {} })

describe('boxOf', () => {
  it('draws a block in the unit cube from its origin, an item centred on it', () => {
    expect(block('minecraft:stone')).toEqual([0, 0, 0, 1, 1, 1])
    expect(item('minecraft:stone')).toEqual([-0.5, -0.5, -0.5, 0.5, 0.5, 0.5])
  })

  it('draws slabs half as high: bottom, top or whole as their type says', () => {
    expect(block('minecraft:oak_slab', { type: 'bottom' })).toEqual([0, 0, 0, 1, 0.5, 1])
    expect(block('minecraft:oak_slab')).toEqual([0, 0, 0, 1, 0.5, 1])
    expect(block('minecraft:oak_slab', { type: 'top' })).toEqual([0, 0.5, 0, 1, 1, 1])
    expect(block('minecraft:oak_slab', { type: 'double' })).toEqual([0, 0, 0, 1, 1, 1])
    expect(item('minecraft:stone_brick_slab')).toEqual([-0.5, -0.5, -0.5, 0.5, 0, 0.5])
  })

  it('draws heads half size, resting on the bottom of the item cube', () => {
    expect(item('minecraft:player_head')).toEqual([-0.25, -0.5, -0.25, 0.25, 0, 0.25])
  })
})

describe('colorOf', () => {
  it('gives a name the same colour every time, namespace or not', () => {
    expect(colorOf('minecraft:stone_bricks')).toBe(colorOf('minecraft:stone_bricks'))
    expect(colorOf('minecraft:stone_bricks')).toBe(colorOf('stone_bricks'))
    // Fixed values: the palette is stable across releases of the page, not just within one.
    expect(
      ['stone_bricks', 'mossy_stone_bricks', 'black_candle', 'unknown_thing'].map((name) =>
        colorOf(name).toString(16),
      ),
    ).toEqual(['7e7e7e', '578435', '1c1c20', '8bb871'])
  })

  it('tells related materials apart, and colours dyed ones by their dye', () => {
    const stone = colorOf('minecraft:stone_bricks')
    const mossy = colorOf('minecraft:mossy_stone_bricks')
    expect(mossy).not.toBe(stone)
    const red = colorOf('minecraft:red_wool')
    expect(red >> 16).toBeGreaterThan((red >> 8) & 0xff)
  })

  it('gives every material of the fixtures a valid colour', () => {
    for (const text of Object.values(FIXTURES)) {
      const reading = readDisplays((JSON.parse(text) as { content: unknown }).content)
      if (!reading.ok) throw new Error(reading.message)
      for (const display of reading.displays) {
        const color = colorOf(display.name)
        expect(Number.isInteger(color) && color >= 0 && color <= 0xffffff).toBe(true)
      }
    }
  })
})
