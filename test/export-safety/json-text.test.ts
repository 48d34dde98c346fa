import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NOT_JSON, REPEATED, readJsonText } from '../../src/export-safety/json-text'
import { jsonTextMatches, textFacts, type TextFacts } from '../../src/export-safety/typed-tree'
import { KEY_TYPES } from '../../src/export-safety/types'

/**
 * The one-pass reader of JSON text (json-text.ts) against `JSON.parse` and a walk of its output:
 * the same texts are JSON, and of JSON text the same kinds, nesting too deep and type, on
 * random texts close to real ones (components, styling, world-reading kinds, deep nesting,
 * escapes, repeated members), valid and broken.
 */

const TEXT = KEY_TYPES.get('text')!

type Outcome = 'not JSON' | { facts: TextFacts; matches: boolean }

function byParse(text: string): Outcome {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return 'not JSON'
  }
  const facts = textFacts()
  return { facts, matches: jsonTextMatches(parsed, TEXT, 0, facts) }
}

function byReader(text: string): Outcome {
  const facts = textFacts()
  try {
    return { facts, matches: readJsonText(text, TEXT, facts) }
  } catch (fault) {
    if (fault === NOT_JSON) return 'not JSON'
    if (fault === REPEATED) return byParse(text)
    throw fault
  }
}

const key = fc.constantFrom(
  'text',
  'extra',
  'color',
  'bold',
  'italic',
  'translate',
  'with',
  'selector',
  'nbt',
  'score',
  'clickEvent',
  'action',
  'value',
  'hoverEvent',
  'contents',
  'shadow_color',
  'x',
  '__proto__',
  't\\u0065xt',
  's\\u0065lector',
)
const scalar = fc.oneof(
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"a\\"b"',
    '"\\ud800"',
    '"\\u00e9"',
    '"bad\\x"',
    '"tab\t"',
    'true',
    'false',
    'null',
  ),
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    '01',
    '-',
    '1.',
    '2147483648',
    '"show_text"',
    '"run_command"',
  ),
)
const value: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(key, tie('v')), { maxLength: 4 })
      .map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
  ),
})).v
const spaced = fc
  .tuple(value, fc.constantFrom('', ' ', '\n', '\t', '\r\n', '\ufeff'), fc.nat(3))
  .map(([text, space, where]) => (where === 0 ? text : where === 1 ? space + text : text + space))
const deep = fc
  .tuple(fc.integer({ min: 60, max: 70 }), fc.constantFrom('[', '{"extra":'), scalar, fc.boolean())
  .map(([depth, open, inner, broken]) => {
    const close = open === '[' ? ']' : '}'
    return `${open.repeat(depth)}${inner}${close.repeat(depth - (broken ? 1 : 0))}`
  })
const broken = fc
  .tuple(value, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x'))
  .map(([text, at, insert]) => {
    const i = at % (text.length + 1)
    return text.slice(0, i) + insert + text.slice(i + (insert === '' ? 1 : 0))
  })

describe('JSON text read in one pass', () => {
  it('reads every text as JSON.parse and a walk of its output do', () => {
    let json = 0
    fc.assert(
      fc.property(fc.oneof(spaced, deep, broken), (text) => {
        const expected = byParse(text)
        if (expected !== 'not JSON') json++
        expect(byReader(text)).toEqual(expected)
      }),
      { numRuns: 4000, seed: 41 },
    )
    expect(json).toBeGreaterThan(1000)
  })

  it('reads nesting far past the limit without recursion', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    expect(byReader(text)).toEqual(byParse(text))
  })
})
