import { describe, expect, it } from 'vitest'
import { readDisplays, type Display } from '../../src/model/displays'
import { MAX_DISTANCE_BLOCKS, MAX_DRAWN_DISPLAYS, placeDisplays } from '../../src/model/placement'
import { FIXTURES } from '../fixtures'

const at = (x: number, scale = 1): Display => ({
  kind: 'block',
  name: 'minecraft:stone',
  properties: {},
  text: null,
  textColor: null,
  tags: [`x${x}`],
  matrix: [scale, 0, 0, x, 0, scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1],
  parent: null,
})

describe('placeDisplays', () => {
  it('draws every display of the real exports', () => {
    for (const name of ['stone-gate-136-displays', 'animated-80-displays', 'reading-41-displays']) {
      const reading = readDisplays((JSON.parse(FIXTURES[name]!) as { content: unknown }).content)
      if (!reading.ok) throw new Error(reading.message)
      const placement = placeDisplays(reading.displays)
      expect(placement.drawn, name).toEqual(reading.displays.map((_, i) => i))
      expect(placement.problems, name).toEqual({ list: [], more: 0 })
    }
  })

  it.each([
    ['moved 1e300 away', at(1e300)],
    ['moved 1e300 the other way', at(-1e300)],
    ['scaled by 1e308', at(0, 1e308)],
    ['moved to infinity', at(Infinity)],
    ['moved to NaN', at(NaN)],
  ])('leaves out a display %s beside a near one, and says why', (_, far) => {
    const placement = placeDisplays([at(0.5), far])
    expect(placement.drawn).toEqual([0])
    expect(placement.problems.list).toHaveLength(1)
    expect(placement.problems.list[0]).toMatch(/^Display 1 \(x.*\) .*; left out of the picture\.$/)
  })

  it('keeps a model far from the origin, and displays within the bound of its middle', () => {
    const model = [at(50_000), at(50_001), at(50_000 + MAX_DISTANCE_BLOCKS), at(49_500)]
    expect(placeDisplays(model).drawn).toEqual([0, 1, 2, 3])
    expect(placeDisplays([...model, at(60_000)]).drawn).toEqual([0, 1, 2, 3])
  })

  it('draws at most its cap and counts the rest', () => {
    const many = Array.from({ length: MAX_DRAWN_DISPLAYS + 5 }, (_, i) => at(i % 100))
    const placement = placeDisplays(many)
    expect(placement.drawn).toHaveLength(MAX_DRAWN_DISPLAYS)
    expect(placement.placeable).toBe(MAX_DRAWN_DISPLAYS + 5)
  })
})
