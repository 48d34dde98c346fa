/**
 * Generators of JSON text for property tests: documents as text, so that placeholders can be
 * planted with any of their 16 characters written as `\uHHHH` escapes, strings can hold any
 * code point (lone surrogates as escapes, the rest raw UTF-8), and numbers and whitespace come
 * in every spelling JSON allows.
 */
import fc from 'fast-check'
import { PLACEHOLDER } from '../../src/json'

const encoder = new TextEncoder()

/** JSON string content of arbitrary text (surrogates included), as JSON.stringify writes it. */
export function escapedContent(text: string): string {
  return JSON.stringify(text).slice(1, -1)
}

/** `text` as JSON string content, each character raw or a `\uHHHH` escape in either hex case. */
export function spelled(text: string): fc.Arbitrary<string> {
  const ways = fc.constantFrom('raw', 'lower', 'upper')
  return fc.array(ways, { minLength: text.length, maxLength: text.length }).map((how) =>
    [...text]
      .map((ch, k) => {
        if (how[k] === 'raw') return JSON.stringify(ch).slice(1, -1)
        const hex = ch.charCodeAt(0).toString(16).padStart(4, '0')
        return '\\u' + (how[k] === 'upper' ? hex.toUpperCase() : hex)
      })
      .join(''),
  )
}

/** Pieces of string content: any text, the placeholder, its prefixes, one letter in lower case. */
export const pieceArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map(escapedContent) },
  { weight: 3, arbitrary: spelled(PLACEHOLDER) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 15 }).chain((k) => spelled(PLACEHOLDER.slice(0, k))),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 14 })
      .chain((k) =>
        spelled(PLACEHOLDER.slice(0, k) + PLACEHOLDER[k]!.toLowerCase() + PLACEHOLDER.slice(k + 1)),
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom('[', ']', '\\\\', '\\"', '\\/', '\\n', '😀', 'é') },
)

/** A JSON string literal made of pieces. */
export const stringArb = fc
  .array(pieceArb, { maxLength: 5 })
  .map((pieces) => `"${pieces.join('')}"`)

/** Whitespace between tokens, of the four kinds JSON allows. */
export const wsArb = fc.constantFrom('', '', ' ', '\n', '\t', '\r\n  ')

/** A string, number or literal. */
export const leafArb = fc.oneof(
  stringArb,
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.integer().map(String),
  fc.constantFrom('true', 'false', 'null'),
  fc.constantFrom('-0', '0.5e-3', '1E+2', '-12.75E01', '1e999999', '12345678901234567890'),
)

/** Any value, and an object, nested a few levels. */
export const { value: valueArb, object: objectArb } = fc.letrec<{
  value: string
  array: string
  object: string
}>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leafArb, tie('array'), tie('object')),
  array: fc
    .array(fc.tuple(wsArb, tie('value'), wsArb), { maxLength: 4 })
    .map((items) => `[${items.map((parts) => parts.join('')).join(',')}]`),
  object: fc
    .array(fc.tuple(wsArb, stringArb, wsArb, wsArb, tie('value'), wsArb), { maxLength: 4 })
    .map(
      (members) =>
        `{${members.map(([a, key, b, c, value, d]) => `${a}${key}${b}:${c}${value}${d}`).join(',')}}`,
    ),
}))

/** A whole document: one root object, with whitespace around it. */
export const documentArb = fc
  .tuple(wsArb, objectArb, wsArb)
  .map(([before, root, after]) => encoder.encode(before + root + after))
