import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import vocabulary from '../../src/export-safety/types/vocabulary.json'
import { PLACEHOLDER } from '../support/fixtures'

/**
 * A quoted string's raw text (between its quotes, escapes as written) as the plugins' readers
 * see it: the first of the reader markers it holds, in their order, else the first bracket that
 * does not fit (an unclosed one: the innermost), else null. Written as the rule reads, one check
 * after the other, with nothing shared with the check's own reading.
 */
function readerFault(raw: string): string | null {
  for (const marker of vocabulary.readerMarkers) if (raw.includes(marker)) return marker
  const open: string[] = []
  for (const char of raw) {
    if (char === '{' || char === '[') open.push(char)
    else if (char === '}' || char === ']') {
      if (open.pop() !== (char === '}' ? '{' : '[')) return char
    }
  }
  return open.at(-1) ?? null
}

/** A model whose one part is the target of a `data merge` of its `Tags` to `[string]`. */
function exportWithTag(string: string): string {
  const part = `{id:"minecraft:item_display",Tags:["${PLACEHOLDER}_0"]}`
  const command = `data merge entity @e[type=item_display,tag=${PLACEHOLDER}_0] {Tags:[${string}]}`
  return JSON.stringify({
    content: {
      passengers: [part],
      datapack: { anim_keyframes: { default: { '0': [command] } } },
      version: '1.21.4',
    },
  })
}

/** Text of brackets, marker pieces and letters, quoted in `"` or `'` (their own quote escaped). */
const pieceArb = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  'id:',
  '"id":',
  '{id:',
  '{"id":',
  'Passengers:',
  'passengers',
  'P',
  'p',
  ':',
  'a',
  '\\',
)
/** Brackets nested `depth` deep, each closed in turn: past what a small integer holds. */
const nestedArb = fc.array(fc.constantFrom('{', '['), { minLength: 1, maxLength: 40 }).map(
  (opens) =>
    opens.join('') +
    [...opens]
      .reverse()
      .map((o) => (o === '{' ? '}' : ']'))
      .join(''),
)
const rawArb = fc
  .array(fc.oneof(pieceArb, nestedArb), { maxLength: 12 })
  .map((pieces) => pieces.join(''))

function quote(text: string, mark: '"' | "'"): { written: string; raw: string } {
  const raw = text.replaceAll('\\', '\\\\').replaceAll(mark, `\\${mark}`)
  return { written: `${mark}${raw}${mark}`, raw }
}

describe('a quoted string, as the plugins’ readers see it', () => {
  it('is refused for its first marker, else its first bracket out of place, however deep', () => {
    fc.assert(
      fc.property(rawArb, fc.constantFrom<'"' | "'">('"', "'"), (text, mark) => {
        const { written, raw } = quote(text, mark)
        const fault = readerFault(raw)
        const verdict = checkExportSafety(exportWithTag(written))
        if (fault === null) expect(verdict).toEqual({ safe: true })
        else expect(verdict).toMatchObject({ safe: false, reason: 'reader', found: fault })
      }),
      { numRuns: 3000, seed: 48 },
    )
  })

  it('reads thousands of bracketed strings in one list alike', () => {
    const strings = Array.from({ length: 3000 }, (_, k) => `"[{[${k % 10}]}]"`)
    expect(checkExportSafety(exportWithTag(strings.join(',')))).toEqual({ safe: true })
    strings[2999] = '"[{[9]]}"'
    expect(checkExportSafety(exportWithTag(strings.join(',')))).toMatchObject({
      reason: 'reader',
      found: ']',
    })
    strings[1] = '"x{id:y"'
    expect(checkExportSafety(exportWithTag(strings.join(',')))).toMatchObject({
      reason: 'reader',
      found: '{id:',
    })
  })
})
