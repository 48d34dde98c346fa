import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sansCraft } from '../../src/export-safety/testing'
import { sansCraft as literalSansCraft } from '../support/oracle-readers'

/** Pieces that move sanscraft-bde's blind counting: brackets, quotes, markers, commas. */
const ATOMS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  "'",
  '\\',
  ' ',
  'Passengers:[',
  'passengers:[',
  'id:"a"',
  'x',
  '{id:"minecraft:block_display",Passengers:[',
  ']}',
  '},{',
]

const compounds = (text: string) => sansCraft(text).map((entity) => entity.compound)
const literal = (text: string) => literalSansCraft(text).map((entity) => entity.compound)

describe("sanscraft-bde's reading, in one pass", () => {
  it('flattens every string into the entities the plugin, searching at every level, makes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ATOMS), { maxLength: 24 }), (atoms) => {
        const text = atoms.join('')
        expect(compounds(text)).toEqual(literal(text))
      }),
      { numRuns: 20_000 },
    )
  })

  it('reads passengers nested 30 deep in time that does not grow with the depth', () => {
    const parts = Array.from({ length: 4000 }, () => '{id:"item_display",item_display:"none"}')
    const nest = (depth: number) => {
      let text = parts.join(',')
      for (let level = depth; level > 0; level--) {
        text = `{id:"block_display",Passengers:[${text}]}`
      }
      return text
    }
    const time = (text: string) => {
      let best = Infinity
      for (let round = 0; round < 5; round++) {
        const started = performance.now()
        sansCraft(text)
        best = Math.min(best, performance.now() - started)
      }
      return best
    }
    const shallow = nest(1)
    const deep = nest(30)
    expect(compounds(deep)).toEqual(literal(deep))
    expect(compounds(deep)).toHaveLength(4030)
    // The plugin's own walk reads the 4,000 parts once per level: 30 times at this depth.
    expect(time(deep)).toBeLessThan(4 * time(shallow) + 2)
  })
})
