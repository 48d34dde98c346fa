import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readSnbt, SNBT_MAX_DEPTH, type SnbtValue } from '../../src/model/snbt'
import { FIXTURES } from '../fixtures'

function value(text: string): SnbtValue {
  const reading = readSnbt(text)
  if (!reading.ok) throw new Error(reading.message)
  return reading.value
}

function failure(text: string): string {
  const reading = readSnbt(text)
  if (reading.ok) throw new Error(`read ${JSON.stringify(reading.value)}`)
  return reading.message
}

describe('readSnbt', () => {
  it('reads numbers by their suffixes, and the unsuffixed ones as ints or doubles', () => {
    expect(value('[1b,-2s,3L,4l,0.5f,-1.5F,2.5d,7D,6,7.0,1e3,-.5,+3,true,false]')).toEqual([
      1, -2, 3, 4, 0.5, -1.5, 2.5, 7, 6, 7, 1000, -0.5, 3, 1, 0,
    ])
  })

  it('reads as strings the words that only look like numbers', () => {
    expect(value('[1.5b,1e,0x10,Infinity,NaN,1e5L,-,.,e5,1..2]')).toEqual([
      '1.5b',
      '1e',
      '0x10',
      'Infinity',
      'NaN',
      '1e5L',
      '-',
      '.',
      'e5',
      '1..2',
    ])
    expect(value('[1e5f,1.e5,-0.5E-1D,+.5f]')).toEqual([100000, 100000, -0.05, 0.5])
  })

  it('reads quoted strings with escapes, and unquoted tokens that are not numbers as strings', () => {
    expect(value(`["a \\"b\\" c",'it\\'s',"\\\\",x_1,1b2,minecraft.stone]`)).toEqual([
      'a "b" c',
      "it's",
      '\\',
      'x_1',
      '1b2',
      'minecraft.stone',
    ])
  })

  it('refuses what the check refuses: escapes read differently by version, reader markers', () => {
    expect(failure('"tab\\there"')).toContain('the escape "\\t"')
    expect(failure('"\\u00e9"')).toContain('the escape "\\u"')
    expect(failure(`{text:"a{id:b"}`)).toContain("plugin's own reader")
  })

  it('reads compounds with quoted and unquoted keys, nested lists and compounds', () => {
    const read = value(
      `{id:"minecraft:block_display","minecraft:profile":{a:[{b:1}]},Tags:["t_0"]}`,
    )
    expect(read).toEqual({
      id: 'minecraft:block_display',
      'minecraft:profile': { a: [{ b: 1 }] },
      Tags: ['t_0'],
    })
  })

  it('keeps a key named __proto__ as a key', () => {
    const read = value('{__proto__:{polluted:1b}}') as Record<string, SnbtValue>
    expect(Object.keys(read)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('reads typed arrays as typed arrays', () => {
    const read = value('{i:[I;1415792147,-1946788753],b:[B;1b,-2b],l:[L;9223372036854775807L,-1L]}')
    expect(read).toEqual({
      i: Int32Array.from([1415792147, -1946788753]),
      b: Int8Array.from([1, -2]),
      l: BigInt64Array.from([9223372036854775807n, -1n]),
    })
    expect(failure('[I;1,x]')).toContain('non-integer')
    // The first array that holds one is named; a fault of the grammar further on comes first.
    expect(failure('[[B;1b],[L;y],[I;z]]')).toContain('[L;...] holds a non-integer')
    expect(failure('[[I;x],{a:1b,}')).toContain('unexpected "end of text"')
  })

  it('tolerates what real exports contain: spaces after colons, empty members of compounds', () => {
    expect(value('{ shadow: 1b,,Tags:["a"],  x : [ 1 , 2 ] , }')).toEqual({
      shadow: 1,
      Tags: ['a'],
      x: [1, 2],
    })
    // A list has no empty elements, as in the game's grammar.
    expect(failure('["a",]')).toContain('unexpected "]"')
  })

  it('says where a truncated string stops making sense', () => {
    const end = 'unexpected "end of text"'
    expect(failure('{id:"minecraft:block_display",transformation:[1f,0f')).toContain(end)
    expect(failure('{id:"minecraft:stone')).toContain(end)
    expect(failure('{id')).toContain(end)
    expect(failure('')).toContain(end)
    expect(failure('{a:1} trailing')).toContain('unexpected "t"')
    expect(failure('{a:1}\n')).toContain('unexpected "\n"')
  })

  it('refuses nesting deeper than the limit, 10,000 deep included, without recursing into it', () => {
    expect(failure('['.repeat(10_000) + ']'.repeat(10_000))).toContain(
      `deeper than ${SNBT_MAX_DEPTH} levels`,
    )
    expect(failure('{a:'.repeat(10_000) + '1' + '}'.repeat(10_000))).toContain('deeper than')
    const atLimit = '['.repeat(SNBT_MAX_DEPTH) + ']'.repeat(SNBT_MAX_DEPTH)
    expect(readSnbt(atLimit).ok).toBe(true)
    expect(readSnbt('[' + atLimit + ']').ok).toBe(false)
  })

  it('reads a 1 MB unquoted token in linear time, digits included', () => {
    const letters = 'a'.repeat(1 << 20)
    expect(value(letters)).toBe(letters)
    // A run of digits that fails to be a number at its very end: no backtracking blow-up.
    const digits = '1'.repeat(1 << 20) + 'x'
    expect(value(`[${digits}]`)).toEqual([digits])
    expect(value('1'.repeat(1 << 20) + '.5e')).toHaveLength((1 << 20) + 3)
  })

  it('reads a 1 MB string of escapes', () => {
    const read = value('"' + '\\\\'.repeat(1 << 19) + '"')
    expect(read).toBe('\\'.repeat(1 << 19))
  })

  it('never throws on any string, and refuses every cut of a real passenger string', () => {
    const snbtish = fc.string({ unit: fc.constantFrom(...'{}[]:,;"\'\\ abIL01.-fdse'.split('')) })
    fc.assert(
      fc.property(fc.oneof(fc.string(), snbtish), (text) => {
        expect(typeof readSnbt(text).ok).toBe('boolean')
      }),
    )
    const content = JSON.parse(FIXTURES['reading-41-displays']!) as {
      content: { passengers: string[] }
    }
    const passengers = `[${content.content.passengers[0]!}]`
    expect(readSnbt(passengers).ok).toBe(true)
    for (let cut = 0; cut < passengers.length - 1; cut += 97) {
      expect(readSnbt(passengers.slice(0, cut)).ok).toBe(false)
    }
  })

  it('never throws, whatever the text', () => {
    const samples = [
      '{',
      '[',
      '[I;',
      '{a:}',
      '{:1}',
      ']',
      '}',
      ',',
      '"',
      "'",
      '\\',
      '{a:[1,}',
      '[B;1b',
      '\u0000',
    ]
    for (const text of samples) expect(readSnbt(text).ok, text).toBe(false)
  })
})
