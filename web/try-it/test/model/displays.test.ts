import { describe, expect, it } from 'vitest'
import { readDisplays, type Display, type ModelReading } from '../../src/model/displays'
import { IDENTITY } from '../../src/model/matrix'
import { FIXTURES } from '../fixtures'

function contentOf(name: string): { passengers: string[] } {
  return (JSON.parse(FIXTURES[name]!) as { content: { passengers: string[] } }).content
}

function displaysOf(reading: ModelReading): Display[] {
  if (!reading.ok) throw new Error(reading.message)
  return reading.displays
}

function kinds(displays: Display[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const d of displays) counts[d.kind] = (counts[d.kind] ?? 0) + 1
  return counts
}

const ENTITY = (extra: string) =>
  `{id:"minecraft:block_display",block_state:{Name:"minecraft:stone"},${extra}Tags:["t_0"]}`

describe('readDisplays on the real exports (fixtures/README.md)', () => {
  it.each([
    ['stone-gate-136-displays', 136, { item: 136 }],
    ['animated-80-displays', 80, { block: 18, item: 62 }],
    ['reading-41-displays', 41, { item: 37, text: 4 }],
  ])('%s has %i displays', (name, count, byKind) => {
    const content = contentOf(name)
    const displays = displaysOf(readDisplays(content))
    expect(displays).toHaveLength(count)
    // The same count, read from the export by a different route: its display entity ids.
    const ids = content.passengers.join().match(/id:"minecraft:(block|item|text)_display"/g)
    expect(ids).toHaveLength(count)
    expect(kinds(displays)).toEqual(byKind)
    // Every display carries its own tag and a 4x4 matrix whose last row is 0 0 0 1.
    expect(new Set(displays.map((d) => d.tags[0])).size).toBe(count)
    for (const d of displays) {
      expect(d.matrix).toHaveLength(16)
      expect(d.matrix.slice(12)).toEqual([0, 0, 0, 1])
      expect(d.parent).toBeNull()
    }
    if (!readDisplays(content).ok) throw new Error('unreachable')
    expect(readDisplays(content)).toMatchObject({ problems: { list: [], more: 0 } })
  })

  it('reads block names and properties, item ids and the first display exactly', () => {
    const [first] = displaysOf(readDisplays(contentOf('animated-80-displays')))
    expect(first).toEqual({
      kind: 'block',
      name: 'minecraft:black_candle',
      properties: { candles: '1', lit: 'false' },
      text: null,
      textColor: null,
      tags: ['[MODELSERVERTAG]_0'],
      matrix: [
        0.0019816015, 0.0243447443, -0.0411004264, -0.1658874182, 0.0376032767, -0.0118053275,
        -0.0640561491, 0.2737046685, -0.0820533005, -0.0080524039, -0.0303481487, -0.4958245087, 0,
        0, 0, 1,
      ],
      parent: null,
    })
    const gate = displaysOf(readDisplays(contentOf('stone-gate-136-displays')))
    expect(gate[0]).toMatchObject({
      kind: 'item',
      name: 'minecraft:stone_bricks',
      matrix: [0, 0, 1, 0.5, 0, 1, 0, 4.5, -1, 0, 0, 0.5, 0, 0, 0, 1],
    })
  })

  it('reads the words and colour of text displays (emoji included)', () => {
    const texts = displaysOf(readDisplays(contentOf('reading-41-displays')))
      .filter((d) => d.kind === 'text')
      .map((d) => [d.text, d.textColor])
    expect(texts).toEqual([
      ['🧍', '#843939'],
      ['🚂', '#3e8439'],
      ['🚂', '#843939'],
      ['🧍', '#3e8439'],
    ])
  })
})

describe('readDisplays on other shapes', () => {
  it('follows Passengers, recording which display each one rides', () => {
    const root = `{id:"minecraft:block_display",Tags:["root"],Passengers:[${ENTITY('')},{id:"minecraft:interaction",Passengers:[{id:"minecraft:text_display",text:'{"text":"Hi","color":"gold","extra":[" there"]}'}]}]}`
    const displays = displaysOf(readDisplays({ passengers: [root] }))
    expect(displays.map((d) => [d.kind, d.parent, d.text])).toEqual([
      ['block', null, null],
      ['block', 0, null],
      ['text', 0, 'Hi there'],
    ])
    expect(displays[2]?.textColor).toBe('#ffaa00')
    // A root entity without block_state is air; without transformation, untransformed.
    expect(displays[0]).toMatchObject({ name: 'minecraft:air', matrix: IDENTITY })
  })

  it('accepts a single string, a bracketed list, and SNBT text components', () => {
    const reading = readDisplays({
      passengers: `[{id:"minecraft:text_display",text:{text:"snbt",color:"#00FF00"}}]`,
    })
    expect(displaysOf(reading).map((d) => [d.text, d.textColor])).toEqual([['snbt', '#00ff00']])
  })

  it('reads the decomposed transformation form as T * L * S * R', () => {
    const quarterTurnY = `[0f,${Math.SQRT1_2}f,0f,${Math.SQRT1_2}f]`
    const [d] = displaysOf(
      readDisplays({
        passengers: [
          ENTITY(
            `transformation:{translation:[1f,2f,3f],left_rotation:${quarterTurnY},scale:[2f,1f,1f],right_rotation:[0f,0f,0f,1f]},`,
          ),
        ],
      }),
    )
    const m = d!.matrix.map((x) => Math.round(x * 1e6) / 1e6 + 0)
    expect(m).toEqual([0, 0, 1, 1, 0, 1, 0, 2, -2, 0, 0, 3, 0, 0, 0, 1])
  })

  it('draws a display whose matrix has the wrong length untransformed, and says so', () => {
    const reading = readDisplays({ passengers: [ENTITY('transformation:[1f,0f,0f],')] })
    expect(reading).toMatchObject({
      ok: true,
      displays: [{ matrix: IDENTITY }],
      problems: {
        list: ['Display 0 (t_0) has a transformation of 3 numbers, not 16; drawn untransformed.'],
      },
    })
    const strings = readDisplays({
      passengers: [ENTITY(`transformation:[${Array(16).fill('"a"').join()}],`)],
    })
    expect(strings).toMatchObject({
      ok: true,
      problems: { list: [expect.stringContaining('not all numbers')] },
    })
  })

  it('says why there is nothing to draw: no passengers, unreadable SNBT, no displays', () => {
    expect(readDisplays({ project_id: 'p' })).toMatchObject({ ok: false, reason: 'no_passengers' })
    expect(readDisplays(null)).toMatchObject({ ok: false, reason: 'no_passengers' })
    expect(readDisplays({ passengers: [42] })).toMatchObject({ ok: false, reason: 'no_passengers' })
    const truncated = contentOf('stone-gate-136-displays').passengers[0]!.slice(0, 5000)
    expect(readDisplays({ passengers: [truncated] })).toMatchObject({
      ok: false,
      reason: 'unreadable',
      message:
        'Passenger string 0 is not readable SNBT: The SNBT does not parse as an export writes it: ' +
        'unexpected "end of text".',
    })
    expect(readDisplays({ passengers: ['['.repeat(10_000)] })).toMatchObject({
      ok: false,
      reason: 'unreadable',
      message: expect.stringContaining('nests SNBT deeper than 64 levels'),
    })
    expect(readDisplays({ passengers: ['{id:"minecraft:pig"}'] })).toMatchObject({
      ok: false,
      reason: 'no_displays',
    })
  })

  it('follows Passengers as deep as the check reads them, and no deeper', () => {
    const nested = (levels: number) => {
      let entity = ENTITY('')
      for (let i = 0; i < levels; i++) {
        entity = `{id:"minecraft:item_display",Passengers:[${entity}]}`
      }
      return readDisplays({ passengers: [entity] })
    }
    // Each level is a compound and its Passengers list: two of the check's 64 levels of SNBT.
    expect(displaysOf(nested(30))).toHaveLength(31)
    expect(nested(31)).toMatchObject({
      ok: false,
      reason: 'unreadable',
      message: expect.stringContaining('nests SNBT deeper than 64 levels'),
    })
  })
})
