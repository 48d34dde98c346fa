/**
 * The one JSON byte reader (src/json/) serves publish validation and the display-model check in
 * one pass: what an observer of the scanner watches is what `JSON.parse` reads, and the check
 * read in the validator's pass gives the verdict it gives in a pass of its own, on every
 * export-safety vector and every real export. One grammar and one set of limits: the check's
 * pass accepts exactly what the validator accepts, up to the validator's nesting limit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_NESTING_DEPTH } from '../../src/contract/wire'
import { checkExportSafety, findUnsafeExport, startExportCheck } from '../../src/export-safety'
import {
  JsonScanner,
  JsonStrings,
  MalformedExportError,
  type JsonKind,
  type JsonObserver,
} from '../../src/json'
import { ServiceFailure } from '../../src/http'
import { validateExport } from '../../src/publish/testing'
import { VECTORS } from '../support/export-safety-vectors'
import { FIXTURES } from '../support/fixtures'
import { documentArb } from '../support/json-arbitraries'

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const encoder = new TextEncoder()

type Container =
  { kind: 'object'; value: Record<string, unknown> } | { kind: 'array'; value: unknown[] }

/**
 * The document rebuilt from what an observer watching every value is told: each string from
 * its bytes (checked against `JsonStrings`), each number and literal from the bytes up to the
 * next delimiter, each container from its members or elements. Counts the values read.
 */
function readByWatching(bytes: Uint8Array): { value: unknown; values: number } {
  const strings = new JsonStrings(bytes)
  const text = (start: number, end: number) => decoder.decode(bytes.subarray(start, end))
  const open: Container[] = []
  let root: unknown = undefined
  let name = ''
  let stringStart = -1
  let values = 0
  const place = (value: unknown) => {
    values++
    const parent = open[open.length - 1]
    if (parent === undefined) root = value
    else if (parent.kind === 'array') parent.value.push(value)
    else {
      // As JSON.parse keeps a repeated name: its first place, its last value.
      Object.defineProperty(parent.value, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  const begin = (kind: JsonKind, offset: number): boolean => {
    expect(strings.kindAt(offset)).toBe(kind)
    if (kind === 'object' || kind === 'array') {
      const container: Container = kind === 'object' ? { kind, value: {} } : { kind, value: [] }
      place(container.value)
      open.push(container)
      return true
    }
    if (kind === 'string') {
      stringStart = offset
      return true
    }
    let end = offset
    while (end < bytes.length && !',]} \t\r\n'.includes(String.fromCharCode(bytes[end]!))) end++
    place(JSON.parse(text(offset, end)))
    return false
  }
  const observer: JsonObserver = {
    root: begin,
    member(nameStart, nameEnd, kind, offset) {
      name = JSON.parse(text(nameStart, nameEnd)) as string
      expect(strings.name(nameStart, nameEnd)).toBe(name)
      return begin(kind, offset)
    },
    element: begin,
    end(offset) {
      if (stringStart >= 0) {
        const value = JSON.parse(text(stringStart, offset)) as string
        expect(strings.string(stringStart, offset)).toBe(value)
        stringStart = -1
        place(value)
        return
      }
      const closed = open.pop()!
      expect(bytes[offset - 1]).toBe(closed.kind === 'object' ? 0x7d : 0x5d)
    },
  }
  new JsonScanner({ grammar: 'strict', observer }).scanWhole(bytes)
  expect(open).toEqual([])
  return { value: root, values }
}

const TEXTS = [...VECTORS.map((vector) => vector.text), ...Object.values(FIXTURES)]

const HAND_PICKED = [
  '{}',
  ' \r\n\t{ } \n',
  '{"a":[],"b":{},"c":"","d":0,"e":-0.5e-3,"f":1E+2,"g":true,"h":false,"i":null}',
  '{"\\u0063ontent":{"x":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"}}',
  '{"\uFEFFcontent":{},"content":{},"content":[1,2]}',
  '{"emoji":"\uD83D\uDE00","escaped":"\\ud83d\\ude00","lone":"\\ud83d"}',
  '{"a" : [ 1 , [ 2 , [ 3 ] ] , { "b" : [ ] } ] , "c" : "]}\\"{["}',
  '{"__proto__":{"a":1},"constructor":[]}',
  '{"content":{"passengers":["{id:\\"minecraft:block_display\\",Tags:[\\"[MODELSERVERTAG]_0\\"]}"]}}',
  '[1,"two",{"three":3}]',
  '"a string"',
  '-12.5e+3',
]

/** What a `ServiceFailure` with `reason` looks like to `toThrow`. */
const failure = (reason: string) =>
  expect.objectContaining({ failure: expect.objectContaining({ reason }) })

describe('an observer of the scanner reads what JSON.parse reads', () => {
  it('on every export-safety vector and every real export', () => {
    let values = 0
    for (const text of TEXTS) {
      const read = readByWatching(encoder.encode(text))
      expect(read.value).toEqual(JSON.parse(text))
      values += read.values
    }
    expect(TEXTS.length).toBeGreaterThan(80)
    expect(values).toBeGreaterThan(5_000)
  })

  it('on hand-picked spellings: escapes, surrogates, U+FEFF in names, repeated names, numbers', () => {
    for (const text of HAND_PICKED) {
      expect(readByWatching(encoder.encode(text)).value).toEqual(JSON.parse(text))
    }
  })

  it('on generated documents', () => {
    fc.assert(
      fc.property(documentArb, (bytes) => {
        expect(readByWatching(bytes).value).toEqual(JSON.parse(decoder.decode(bytes)))
      }),
      { numRuns: 300 },
    )
  })

  it('is told nothing of the values it does not watch', () => {
    const bytes = encoder.encode('{"skip":{"a":["b",{"c":1}]},"keep":["d",{"e":2}],"last":3}')
    const told: string[] = []
    const observer: JsonObserver = {
      root: (kind) => (told.push(`root ${kind}`), true),
      member(nameStart, nameEnd, kind) {
        const name = JSON.parse(decoder.decode(bytes.subarray(nameStart, nameEnd))) as string
        told.push(`${name} ${kind}`)
        return name === 'keep'
      },
      element: (kind) => (told.push(`element ${kind}`), false),
      end: (offset) => void told.push(`end ${offset}`),
    }
    new JsonScanner({ grammar: 'strict', observer }).scanWhole(bytes)
    expect(told).toEqual([
      'root object',
      'skip object',
      'keep array',
      'element string',
      'element object',
      `end ${bytes.indexOf(0x5d, 30) + 1}`,
      'last number',
      `end ${bytes.length}`,
    ])
  })
})

/** A piece of a JSON string as written: a character raw or escaped in each way JSON allows. */
const stringPieceArb = fc.oneof(
  fc.constantFrom(
    'a',
    '{id:',
    '\\"',
    '\\\\',
    '\\/',
    '\\b',
    '\\f',
    '\\n',
    '\\r',
    '\\t',
    'é',
    '😀',
    '\uFEFF',
  ),
  fc.integer({ min: 0, max: 0xffff }).map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`),
  fc.constantFrom('\\ud83d\\ude00', '\\uD83D\\uDE00', '\\ud83d', '\\ude00', '\\ud83d\\u0041'),
)

describe('a long string decoded alone', () => {
  it('reads as JSON.parse reads it, whatever its escapes', () => {
    fc.assert(
      fc.property(fc.array(stringPieceArb, { minLength: 1, maxLength: 60 }), (pieces) => {
        // Past the window's 8 KiB, so that it is decoded on its own.
        const written = `"${'x'.repeat(9000)}${pieces.join('')}"`
        const bytes = encoder.encode(written)
        const value = new JsonStrings(bytes).string(0, bytes.length, true)
        expect(value).toBe(JSON.parse(written))
      }),
      { numRuns: 300 },
    )
  })
})

/** The check's verdict read in the validator's pass, and what the validator counted. */
function validatedAndChecked(bytes: Uint8Array) {
  const check = startExportCheck(bytes)
  const counted = validateExport(bytes, check.observer)
  return { counted, verdict: check.verdict() }
}

describe('validation and the check read in one pass', () => {
  it('give each the verdict it gives alone, on every vector and every real export', () => {
    let refused = 0
    for (const text of TEXTS) {
      const bytes = encoder.encode(text)
      const alone = { counted: validateExport(bytes), verdict: findUnsafeExport(bytes) }
      expect(validatedAndChecked(bytes)).toEqual(alone)
      if (alone.verdict !== null) refused++
    }
    expect(refused).toBeGreaterThan(20)
  })

  it('on generated documents', () => {
    fc.assert(
      fc.property(documentArb, (bytes) => {
        let alone: unknown
        try {
          alone = { counted: validateExport(bytes), verdict: findUnsafeExport(bytes) }
        } catch (error) {
          // Not of the form {"content": {...}}: refused before the check is asked.
          if (!(error instanceof ServiceFailure)) throw error
          expect(() => validatedAndChecked(bytes)).toThrow(failure(error.failure.reason))
          return
        }
        expect(validatedAndChecked(bytes)).toEqual(alone)
      }),
      { numRuns: 300 },
    )
  })

  it('refuse alike what is not JSON: the check reads with the validator’s grammar', () => {
    const broken = [
      '{"content":{}',
      '{"content":{},}',
      '{"content":{"a":01}}',
      '{"content":{"a":"\\x"}}',
      '{"content":{"a":"\u0001"}}',
      '{"content":{"a":tru}}',
      '{"content":{}} {}',
    ]
    for (const text of broken) {
      const bytes = encoder.encode(text)
      expect(() => JSON.parse(text)).toThrow(SyntaxError)
      expect(() => validateExport(bytes)).toThrow(failure('invalid_json'))
      expect(() => findUnsafeExport(bytes)).toThrow(MalformedExportError)
      expect(() => validatedAndChecked(bytes)).toThrow(failure('invalid_json'))
      // The client's check, in a pass of its own, throws as JSON.parse throws.
      expect(() => checkExportSafety(bytes)).toThrow(SyntaxError)
      expect(() => checkExportSafety(text)).toThrow(SyntaxError)
    }
    const notUtf8 = new Uint8Array([
      ...encoder.encode('{"content":{"a":"'),
      0xc0,
      0x80,
      0x22,
      0x7d,
      0x7d,
    ])
    expect(() => validateExport(notUtf8)).toThrow(failure('invalid_json'))
    expect(() => findUnsafeExport(notUtf8)).toThrow(MalformedExportError)
    expect(() => checkExportSafety(notUtf8)).toThrow(SyntaxError)
  })

  it('at the limit the validator holds documents to, and refuse one level more', () => {
    const nested = (levels: number) =>
      encoder.encode('{"content":' + '{"a":'.repeat(levels - 2) + '[]' + '}'.repeat(levels - 1))
    // The validator takes it whole; the check refuses its member, which no reader reads.
    expect(validatedAndChecked(nested(MAX_NESTING_DEPTH))).toEqual({
      counted: { placeholders: 0, placeholderBytes: 0 },
      verdict: expect.objectContaining({ reason: 'member', path: 'content.a' }),
    })
    expect(() => validatedAndChecked(nested(MAX_NESTING_DEPTH + 1))).toThrow(
      failure('invalid_export'),
    )
  })
})
