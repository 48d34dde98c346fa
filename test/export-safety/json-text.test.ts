import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkExportSafety, type ExportSafety } from '../../src/export-safety'
import vocabulary from '../../src/export-safety/types/vocabulary.json'

/**
 * The check's one-pass reader of JSON text against its other way of reading it, `JSON.parse`
 * and a walk of the parsed value, through the check's face: a text display's `text` of
 * `[T,{"text":""}]` is read in one pass, and the same text with a repeated member after T
 * (`[T,{"text":"","text":""}]`, which `JSON.parse` reads as the first) is read by the parse and
 * the walk. Both must give one verdict (reason, what was found, where), on random texts T close
 * to real ones (components, styling, world-reading kinds, click events, deep nesting, escapes,
 * repeated members), valid and broken.
 */

/** T as a text display's text, in SNBT single quotes (whose only escapes are `\\` and `\'`). */
function exportWith(text: string): string {
  const quoted = text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")
  const passenger = `{id:"minecraft:text_display",text:'${quoted}',Tags:["${vocabulary.placeholder}_0"]}`
  return JSON.stringify({ content: { passengers: [passenger], version: '1.21.4' } })
}

function readInOnePass(text: string): ExportSafety {
  return checkExportSafety(exportWith(`[${text},{"text":""}]`))
}

function readByParse(text: string): ExportSafety {
  return checkExportSafety(exportWith(`[${text},{"text":"","text":""}]`))
}

/** Whether the verdict came from reading the text as JSON (not refused before, or as not JSON). */
function readAsJson(verdict: ExportSafety): boolean {
  if (verdict.safe) return true
  return verdict.reason !== 'syntax' && !(verdict.reason === 'text' && verdict.found === 'not JSON')
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
    let accepted = 0
    fc.assert(
      fc.property(fc.oneof(spaced, deep, broken), (text) => {
        const expected = readByParse(text)
        if (readAsJson(expected)) json++
        if (expected.safe) accepted++
        expect(readInOnePass(text)).toEqual(expected)
      }),
      { numRuns: 4000, seed: 41 },
    )
    // Texts read as JSON, accepted and refused: the property did not hold vacuously.
    expect(json).toBeGreaterThan(1000)
    expect(accepted).toBeGreaterThan(100)
    expect(json - accepted).toBeGreaterThan(100)
  })

  it('reads nesting as deep as the text limit lets a text be, as the parse does', () => {
    const depth = (vocabulary.limits.maxTextChars - 40) / 2
    const text = `${'['.repeat(depth)}${']'.repeat(depth)}`
    expect(readInOnePass(text)).toEqual(readByParse(text))
    expect(readInOnePass(text)).toMatchObject({ safe: false, reason: 'depth', found: '[' })
  })

  it('reads names past the first few of a text, and one name in two kinds of object, alike', () => {
    const styled = '"color":"red","bold":true,"italic":false,"underlined":true,"font":"a:b"'
    // Nine names before a click event: it is refused however many names came first.
    const clicked = `{"text":"a",${styled},"obfuscated":false,"insertion":"x","clickEvent":{}}`
    expect(readInOnePass(clicked)).toEqual(readByParse(clicked))
    expect(readInOnePass(clicked)).toMatchObject({
      safe: false,
      reason: 'text',
      found: 'clickEvent',
    })
    // `action` is a hover event's member, and no member of a component.
    const hover = '{"hoverEvent":{"action":"show_text","contents":"a"}}'
    expect(readInOnePass(hover)).toEqual(readByParse(hover))
    expect(readInOnePass(hover)).toEqual({ safe: true })
    const typed = `${hover},{"action":"show_text"}`
    expect(readInOnePass(typed)).toEqual(readByParse(typed))
    expect(readInOnePass(typed)).toMatchObject({ safe: false, reason: 'type' })
  })
})
