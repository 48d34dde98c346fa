/**
 * The publish validator (one byte-level pass) against the definition it replaces: decode the
 * bytes as strict UTF-8 (a byte-order mark kept, so that it is refused), `JSON.parse`, then the
 * `content` rule. Same verdict on generated exports, on random mutations of them and on
 * hand-picked hostile inputs; and on every accepted document the placeholder count the read
 * path will check against is the one the JSON splicer finds.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ServiceFailure } from '../../src/http'
import { MAX_NESTING_DEPTH } from '../../src/contract/wire'
import { validateExport } from '../../src/publish/testing'
import { documentArb, spelled, valueArb, wsArb, objectArb } from '../support/json-arbitraries'
import { spliceJson } from '../support/substitution-driver'
import { substitution } from '../../src/substitution'

type Verdict = 'accepted' | 'invalid_json' | 'invalid_export'

const encoder = new TextEncoder()

/**
 * The definition the validator replaces: more than 256 levels of brackets outside strings are
 * refused first; then the bytes decoded as strict UTF-8 (a byte-order mark kept, so that
 * `JSON.parse` refuses it), `JSON.parse`, and the `content` rule.
 */
function reference(bytes: Uint8Array): Verdict {
  if (bracketsNestDeeper(bytes, MAX_NESTING_DEPTH)) return 'invalid_export'
  let parsed: unknown
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
    parsed = JSON.parse(text)
  } catch {
    return 'invalid_json'
  }
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  return isObject(parsed) && isObject(parsed.content) ? 'accepted' : 'invalid_export'
}

/** Whether brackets outside strings nest deeper than `limit` (the nesting scan of old). */
function bracketsNestDeeper(bytes: Uint8Array, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const c = String.fromCharCode(bytes[i]!)
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      if (++depth > limit) return true
    } else if (c === '}' || c === ']') depth--
  }
  return false
}

/** What the validator says, and the message of a refusal. */
function verdictOf(bytes: Uint8Array): { verdict: Verdict; message?: string } {
  try {
    validateExport(bytes)
    return { verdict: 'accepted' }
  } catch (error) {
    if (!(error instanceof ServiceFailure)) throw error
    const failure = error.failure
    if (failure.reason !== 'invalid_json' && failure.reason !== 'invalid_export') throw error
    return { verdict: failure.reason, message: failure.detail }
  }
}

/** The name `content`, each letter raw or escaped, or another name. */
const nameArb = fc.oneof(
  { weight: 4, arbitrary: spelled('content').map((name) => `"${name}"`) },
  { weight: 1, arbitrary: fc.constantFrom('"Content"', '"content "', '"contents"', '"conten"') },
)

/** An export: a root object whose members may or may not include `content`, of any kind. */
const exportArb = fc
  .tuple(
    fc.array(
      fc.tuple(
        nameArb,
        fc.oneof({ weight: 3, arbitrary: objectArb }, { weight: 1, arbitrary: valueArb }),
      ),
      { maxLength: 3 },
    ),
    wsArb,
  )
  .map(([members, ws]) =>
    encoder.encode(`${ws}{${members.map(([k, v]) => `${k}${ws}:${ws}${v}`).join(',')}}${ws}`),
  )

/** Documents of every shape: exports, other roots, and the JSON splicer's object documents. */
const anyDocumentArb = fc.oneof(
  { weight: 4, arbitrary: exportArb },
  { weight: 1, arbitrary: valueArb.map((text) => encoder.encode(text)) },
  { weight: 1, arbitrary: documentArb },
)

/** Bytes that matter to the grammar or to UTF-8, inserted or written over by mutations. */
const INTERESTING = [
  ...'{}[]",:\\/ \t\n\r0123456789.eE+-tfnrulsaxu',
  ...[0x00, 0x08, 0x1f, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc3, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5],
  ...[0xff],
].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c))

type Mutation =
  | { kind: 'insert' | 'replace'; at: number; byte: number }
  | { kind: 'delete' | 'cut'; at: number }
  | { kind: 'repeat'; at: number; length: number }

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('insert' as const, 'replace' as const),
    at: fc.nat(),
    byte: fc.oneof(fc.constantFrom(...INTERESTING), fc.integer({ min: 0, max: 255 })),
  }),
  fc.record({ kind: fc.constantFrom('delete' as const, 'cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.nat({ max: 8 }) }),
)

function mutate(bytes: Uint8Array, mutations: Mutation[]): Uint8Array {
  let out = [...bytes]
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1)
    if (m.kind === 'insert') out.splice(at, 0, m.byte)
    else if (m.kind === 'replace') out[Math.min(at, out.length - 1)] = m.byte
    else if (m.kind === 'delete') out.splice(at, 1)
    else if (m.kind === 'cut') out = out.slice(0, at)
    else if (m.kind === 'repeat') out.splice(at, 0, ...out.slice(at, at + m.length))
  }
  return new Uint8Array(out)
}

/** Fragments of JSON tokens, valid and not, for documents that are nearly JSON. */
const FRAGMENTS = [
  ...['0', '1', '9', '-', '+', '.', 'e', 'E', 'x', '00', '0.5', '1e5', '-0', '12'],
  ...['t', 'tr', 'true', 'f', 'fals', 'false', 'n', 'nul', 'null', 'NaN', 'Infinity'],
  ...[',', ':', '[', ']', '{', '}', ' ', '\n', '\t', '\r', '\f', '\v', '\u00a0'],
  ...['"a"', '"', '""', '"\\"', '"\\u0041"', '"\\uD83D"', '"\\ud83d\\ude00"', '"\\x"', '"\\u12"'],
  ...['"é"', '"\u2028"', '"\0"', '"\u001f"', '"\u007f"', "'a'", '/', '/*', '#'],
]

/** A few fragments in a shell: at the root, as `content`, or inside it. */
const soupArb = fc
  .tuple(
    fc.constantFrom(
      ['', ''],
      ['{"content":', '}'],
      ['{"content":{"a":', '}}'],
      ['{"content":[', ']}'],
    ),
    fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 6 }),
  )
  .map(([[open, close], parts]) => encoder.encode(open + parts.join('') + close))

/** A generated document, a mutation of one, or token soup. */
const candidateArb = fc.oneof(
  { weight: 2, arbitrary: anyDocumentArb },
  {
    weight: 5,
    arbitrary: fc
      .tuple(anyDocumentArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 }))
      .map(([doc, mutations]) => mutate(doc, mutations)),
  },
  { weight: 5, arbitrary: soupArb },
)

describe('the validator against JSON.parse and the content rule', () => {
  it('gives the same verdict on generated documents, their mutations and token soup', () => {
    fc.assert(
      fc.property(candidateArb, (doc) => {
        fc.pre(doc.length > 0)
        expect(verdictOf(doc).verdict).toBe(reference(doc))
      }),
      { numRuns: 12_000 },
    )
  })

  it('gives the same verdict on every value of up to 4 number and literal characters', () => {
    const alphabet = ['0', '1', '-', '+', '.', 'e', 'E', 'x', ' ']
    let values = ['']
    for (let length = 1; length <= 4; length++) {
      values = values.flatMap((value) => alphabet.map((c) => value + c))
      for (const value of values) {
        for (const doc of [`{"content":{"a":${value}}}`, `{"content":[${value}]}`, value]) {
          const bytes = encoder.encode(doc)
          expect(verdictOf(bytes).verdict, doc).toBe(reference(bytes))
        }
      }
    }
    for (const word of ['true', 'false', 'null']) {
      for (let cut = 0; cut <= word.length; cut++) {
        for (const extra of ['', 'e', 'x', ' ', '1']) {
          const bytes = encoder.encode(`{"content":{"a":${word.slice(0, cut)}${extra}}}`)
          expect(verdictOf(bytes).verdict).toBe(reference(bytes))
        }
      }
    }
  })

  it('counts the placeholders the JSON splicer finds in every accepted document', () => {
    fc.assert(
      fc.property(exportArb, (doc) => {
        fc.pre(reference(doc) === 'accepted')
        const jsonSplicer = substitution('t', { escapedPlaceholders: true })
        jsonSplicer.push(doc.slice())
        jsonSplicer.finish()
        const counted = validateExport(doc)
        expect(counted.placeholders).toBe(jsonSplicer.replaced)
        const out = spliceJson([doc.slice()], 't')
        expect(out.length).toBe(
          doc.length - counted.placeholderBytes + counted.placeholders * 't'.length,
        )
      }),
      { numRuns: 500 },
    )
  })
})

/** `{"content":{"a":"…"}}` with the given bytes in the string. */
function stringOf(...bytes: number[]): Uint8Array {
  return new Uint8Array([
    ...encoder.encode('{"content":{"a":"'),
    ...bytes,
    ...encoder.encode('"}}'),
  ])
}

describe('the validator on hostile input', () => {
  const deep = (levels: number, inner = '1') =>
    '{"content":{"a":' + '['.repeat(levels) + inner + ']'.repeat(levels) + '}}'
  const cases: [string, string | Uint8Array, Verdict, RegExp?][] = [
    [
      '100,000 levels of arrays',
      deep(100_000),
      'invalid_export',
      /deeper than 256 levels \(at byte 270\)/,
    ],
    ['100,000 unclosed levels', '['.repeat(100_000), 'invalid_export', /deeper than 256/],
    ['nesting of exactly 256 levels', deep(254), 'accepted'],
    ['nesting of 257 levels', deep(255), 'invalid_export'],
    ['a lone high surrogate escape', '{"content":{"a":"\\uD800"}}', 'accepted'],
    ['a lone low surrogate escape', '{"content":{"\\udfff":1}}', 'accepted'],
    [
      'a raw tab in a string',
      '{"content":{"a":"x\ty"}}',
      'invalid_json',
      /control character 0x09 .*at byte 18/,
    ],
    ['a raw NUL in a string', '{"content":{"a":"\0"}}', 'invalid_json', /0x00/],
    ['a NUL outside strings', '{"content":{}}\0', 'invalid_json', /after the end/],
    [
      'a trailing comma in an array',
      '{"content":{"a":[1,]}}',
      'invalid_json',
      /"\]", expected a value/,
    ],
    [
      'a trailing comma in an object',
      '{"content":{"a":1,}}',
      'invalid_json',
      /expected a member name/,
    ],
    ['"1."', '{"content":{"a":1.}}', 'invalid_json', /after the decimal point \(at byte 18\)/],
    ['"-"', '{"content":{"a":-}}', 'invalid_json', /expected a digit/],
    ['"01"', '{"content":{"a":01}}', 'invalid_json', /leading 0/],
    ['".5"', '{"content":{"a":.5}}', 'invalid_json', /expected a value/],
    ['"+1"', '{"content":{"a":+1}}', 'invalid_json'],
    ['"1e"', '{"content":{"a":1e}}', 'invalid_json', /exponent/],
    ['a huge exponent', '{"content":{"a":1e999999999,"b":-1E-999999999}}', 'accepted'],
    ['NaN', '{"content":{"a":NaN}}', 'invalid_json'],
    ['"tru"', '{"content":{"a":tru}}', 'invalid_json', /literal true/],
    [
      'a document ending inside a string',
      '{"content":{"a":"abc',
      'invalid_json',
      /ends inside a string/,
    ],
    [
      'a document ending inside an escape',
      '{"content":{"a":"\\u00',
      'invalid_json',
      /ends inside a string/,
    ],
    ['a document ending after a number', '{"content":{"a":12', 'invalid_json', /still open/],
    ['a root number', '12', 'invalid_export'],
    ['single quotes', "{'content':{}}", 'invalid_json'],
    ['a comment', '{"content":{}}//', 'invalid_json'],
    [
      'a byte-order mark',
      new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('{"content":{}}')]),
      'invalid_json',
      /byte-order mark/,
    ],
    ['an overlong "/"', stringOf(0xc0, 0xaf), 'invalid_json', /invalid UTF-8 .*at byte 17/],
    ['a UTF-8 surrogate', stringOf(0xed, 0xa0, 0x80), 'invalid_json', /UTF-8/],
    ['a code point above U+10FFFF', stringOf(0xf4, 0x90, 0x80, 0x80), 'invalid_json', /UTF-8/],
    ['a cut UTF-8 sequence', stringOf(0xe2, 0x82), 'invalid_json', /UTF-8/],
    [
      'content repeated, the last not an object',
      '{"content":{},"content":1}',
      'invalid_export',
      /a number/,
    ],
    ['content repeated, the last an object', '{"content":1,"content":{}}', 'accepted'],
    ['content spelled with escapes', '{"\\u0063ont\\u0065nt":{}}', 'accepted'],
    ['content with a short escape', '{"content\\n":{}}', 'invalid_export', /missing/],
    ['content in a nested object only', '{"a":{"content":{}}}', 'invalid_export', /missing/],
    ['content an array', '{"content":[]}', 'invalid_export', /an array \(at byte 11\)/],
    ['content null', '{"content":null}', 'invalid_export', /null/],
    ['content false', '{"content":false}', 'invalid_export', /a boolean/],
    ['U+2028 raw in a string', '{"content":{"a":"\u2028"}}', 'accepted'],
    ['DEL raw in a string', '{"content":{"a":"\x7f"}}', 'accepted'],
  ]

  it.each(cases)('%s', (_, input, expected, message) => {
    const bytes = typeof input === 'string' ? encoder.encode(input) : input
    expect(reference(bytes)).toBe(expected)
    const { verdict, message: said } = verdictOf(bytes)
    expect(verdict).toBe(expected)
    if (message) expect(said).toMatch(message)
  })
})
