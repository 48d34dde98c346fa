import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import { PLACEHOLDER } from '../support/fixtures'

/**
 * A list of decimal numbers (a transformation's sixteen) is read in one native match when it is
 * well formed (snbt.ts, `numberListPattern`), item by item otherwise: the two readings give the
 * same verdict, and a fault is named at its item as the item walk names it.
 */

const ITEMS = Array.from({ length: 16 }, (_, i) => (i % 5 === 0 ? '1f' : '0f'))
/** The sixteen items with the fourth replaced by `item`. */
const withFourth = (item: string) =>
  `[${[...ITEMS.slice(0, 3), item, ...ITEMS.slice(4)].join(',')}]`

/** The verdict on a block display whose `transformation` is `list`: null or [reason, found]. */
function verdictOn(list: string): [string, string] | null {
  const part = `{id:"minecraft:block_display",Tags:["${PLACEHOLDER}_0"],transformation:${list}}`
  const verdict = checkExportSafety(JSON.stringify({ content: { passengers: [part] } }))
  return verdict.safe ? null : [verdict.reason, verdict.found]
}

describe('a list of decimal numbers', () => {
  it('is accepted well formed, with or without spaces around its items', () => {
    expect(verdictOn(`[${ITEMS.join(',')}]`)).toBeNull()
    expect(verdictOn(`[ ${ITEMS.join(' , ')} ]`)).toBeNull()
    expect(verdictOn(`[${ITEMS.join(', ')}]`)).toBeNull()
  })

  it('of another length is refused at the list', () => {
    expect(verdictOn(`[${ITEMS.slice(1).join(',')}]`)).toEqual(['type', 'transformation'])
    expect(verdictOn(`[${ITEMS.join(',')},0f]`)).toEqual(['type', 'transformation'])
    expect(verdictOn('[]')).toEqual(['type', 'transformation'])
  })

  it('with an item that is no such number is refused at that item', () => {
    // An exponent without a suffix, a word running on, a quoted string.
    for (const item of ['1e5', '1fx', '"1f"', '01f', '.5f']) {
      expect(verdictOn(withFourth(item)), item).toEqual(['type', 'transformation[3]'])
    }
  })

  it('that does not parse is refused as the parser reads it', () => {
    expect(verdictOn(`[${ITEMS.join(',')},]`)).toEqual(['syntax', ']'])
  })
})
