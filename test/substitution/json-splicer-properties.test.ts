/**
 * Property-based tests of the JSON splicer against a reference: parse the document, replace the
 * placeholder in every string and key, compare. Documents are generated as JSON text, so
 * placeholders can be planted with any of their 16 characters written as `\uHHHH` escapes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ExportMetadata, substitutedLength } from '../../src/storage'
import { documentArb } from '../support/json-arbitraries'
import { concat, countPlaceholders, splice, spliceJson } from '../support/substitution-driver'
import { substitution } from '../../src/substitution'
import { MalformedExportError, PLACEHOLDER } from '../../src/json'
import { substituteTag } from '../support/substitute-tag'

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
const TAG_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'

/** A sanitized tag: 1 to 100 allowed characters, so both the in-place and the growing path run. */
const tagArb = fc.string({ unit: fc.constantFrom(...TAG_CHARACTERS), minLength: 1, maxLength: 100 })

/** Chunk boundaries for a document of `length` bytes: random cuts, or one byte per chunk. */
function chunked(doc: Uint8Array, cuts: number[] | 'bytes'): Uint8Array[] {
  const points =
    cuts === 'bytes'
      ? Array.from({ length: Math.max(0, doc.length - 1) }, (_, k) => k + 1)
      : [...new Set(cuts.map((cut) => cut % (doc.length + 1)))].sort((a, b) => a - b)
  const bounds = [0, ...points, doc.length]
  return bounds.slice(1).map((end, k) => doc.slice(bounds[k], end))
}

/** Whether the engine writes over its input, and into one reused output buffer. */
const reuseArb = fc.tuple(fc.boolean(), fc.boolean())

const cutsArb = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.nat(), { maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constant('bytes' as const) },
)

/** The reference: the parsed document with the placeholder replaced in every string and key. */
function replaced(value: unknown, tag: string): unknown {
  if (typeof value === 'string') return value.replaceAll(PLACEHOLDER, tag)
  if (Array.isArray(value)) return value.map((item) => replaced(item, tag))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key.replaceAll(PLACEHOLDER, tag),
        replaced(item, tag),
      ]),
    )
  }
  return value
}

/**
 * Whether replacing keeps every object's keys distinct. When two keys become one, the parsed
 * output keeps the later member in text order while the reference keeps the later in property
 * order, which differs for integer-like keys: such documents say nothing about the jsonSplicer.
 */
function keysStayDistinct(value: unknown, tag: string): boolean {
  if (Array.isArray(value)) return value.every((item) => keysStayDistinct(item, tag))
  if (typeof value !== 'object' || value === null) return true
  const keys = Object.keys(value)
  const after = new Set(keys.map((key) => key.replaceAll(PLACEHOLDER, tag)))
  return after.size === keys.length && Object.values(value).every((v) => keysStayDistinct(v, tag))
}

/** The metadata publishing stores for a document, from which the read path sets Content-Length. */
function metadataOf(doc: Uint8Array): ExportMetadata {
  return { v: 1, publishedAt: 0, expiresAt: 1, size: doc.length, ...countPlaceholders(doc) }
}

describe('the JSON splicer against a parse-and-replace reference', () => {
  it('replaces the placeholder in every string and key, under any chunking', () => {
    fc.assert(
      fc.property(documentArb, tagArb, cutsArb, reuseArb, (doc, tag, cuts, [input, output]) => {
        const parsed = JSON.parse(decoder.decode(doc)) as unknown
        fc.pre(keysStayDistinct(parsed, tag))
        const out = spliceJson(chunked(doc, cuts), tag, input, output)
        expect(JSON.parse(decoder.decode(out))).toEqual(replaced(parsed, tag))
      }),
      { numRuns: 400 },
    )
  })

  it('gives out exactly the byte count the read path announces as Content-Length', () => {
    fc.assert(
      fc.property(documentArb, tagArb, cutsArb, (doc, tag, cuts) => {
        const out = spliceJson(chunked(doc, cuts), tag, true)
        expect(out.length).toBe(substitutedLength(metadataOf(doc), tag.length))
      }),
      { numRuns: 300 },
    )
  })

  it('streams the same bytes through substituteTag as through push and finish', async () => {
    await fc.assert(
      fc.asyncProperty(documentArb, tagArb, cutsArb, async (doc, tag, cuts) => {
        const chunks = chunked(doc, cuts)
        const expected = spliceJson(
          chunks.map((chunk) => chunk.slice()),
          tag,
          false,
        )
        const source = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk)
            controller.close()
          },
        })
        const out = await new Response(source.pipeThrough(substituteTag(tag))).arrayBuffer()
        expect(new Uint8Array(out)).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })
})

describe('the JSON splicer on cut-short documents', () => {
  it('rejects every cut before the root closing brace, and accepts every cut after it', () => {
    fc.assert(
      fc.property(documentArb, fc.nat(), cutsArb, (doc, at, cuts) => {
        const cut = at % (doc.length + 1)
        const closing = doc.lastIndexOf(0x7d)
        const head = doc.slice(0, cut)
        const run = () => spliceJson(chunked(head, cuts), 'bde', false)
        if (cut <= closing) {
          expect(run).toThrow(MalformedExportError)
          expect(() => countPlaceholders(head)).toThrow(MalformedExportError)
        } else {
          expect(() => run()).not.toThrow()
        }
      }),
      { numRuns: 500 },
    )
  })
})

/** Bytes that matter to the JSON splicer's state machine, and some that do not. */
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  '\\"',
  '\\\\',
  '\\u',
  '005B',
  '005b',
  '004D',
  'u',
  ':',
  ',',
  ' ',
  'M',
  'a',
  '1',
  PLACEHOLDER,
  '[MODELSERVERTA',
  'G]',
  '\\u005B',
  '😀',
  '\u00e9',
].map((token) => encoder.encode(token))

/** Any byte sequence built from scanner-relevant tokens and raw bytes (invalid UTF-8 included). */
const soupArb = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...TOKENS) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }) },
    ),
    { maxLength: 40 },
  )
  .map((parts) => concat([encoder.encode('{'), ...parts]))

describe('the JSON splicer on arbitrary bytes', () => {
  it('either substitutes or throws MalformedExportError, the same for every chunking', () => {
    fc.assert(
      fc.property(soupArb, cutsArb, fc.boolean(), (bytes, cuts, reuseInput) => {
        const outcome = (chunks: Uint8Array[], reuse: boolean) => {
          try {
            return { out: spliceJson(chunks, 'tag', reuse) }
          } catch (error) {
            expect(error).toBeInstanceOf(MalformedExportError)
            return { reason: (error as MalformedExportError).reason }
          }
        }
        const whole = outcome([bytes.slice()], false)
        expect(outcome(chunked(bytes, cuts), reuseInput)).toEqual(whole)
      }),
      { numRuns: 1000 },
    )
  })
})

/** Reference of the splicer: a naive byte search, replacing every raw placeholder. */
function countRaw(bytes: Uint8Array): number {
  return (bytes.length - replaceRawBytes(bytes, '').length) / PLACEHOLDER.length
}

function replaceRawBytes(bytes: Uint8Array, tag: string): Uint8Array {
  const pattern = encoder.encode(PLACEHOLDER)
  const parts: Uint8Array[] = []
  let from = 0
  for (let at = 0; at + pattern.length <= bytes.length; at++) {
    if (pattern.every((b, k) => bytes[at + k] === b)) {
      parts.push(bytes.slice(from, at), encoder.encode(tag))
      at += pattern.length - 1
      from = at + 1
    }
  }
  parts.push(bytes.slice(from))
  return concat(parts)
}

describe('the splicer', () => {
  it('replaces every raw placeholder in any bytes, under any chunking', () => {
    fc.assert(
      fc.property(soupArb, tagArb, cutsArb, reuseArb, (bytes, tag, cuts, [input, output]) => {
        const expected = replaceRawBytes(bytes, tag)
        expect(splice(chunked(bytes, cuts), tag, input, output)).toEqual(expected)
        const splicer = substitution(tag, { escapedPlaceholders: false })
        for (const chunk of chunked(bytes, cuts)) splicer.push(chunk)
        expect(splicer.replaced).toBe(countRaw(bytes))
      }),
      { numRuns: 1000 },
    )
  })

  it('gives the JSON splicer’s bytes and count on every document whose placeholders are all raw', () => {
    fc.assert(
      fc.property(documentArb, tagArb, cutsArb, (doc, tag, cuts) => {
        const metadata = metadataOf(doc)
        fc.pre(metadata.placeholderBytes === metadata.placeholders * PLACEHOLDER.length)
        const splicer = substitution(tag, { escapedPlaceholders: false })
        const out = chunked(doc, cuts).map((chunk) => splicer.push(chunk))
        out.push(splicer.finish())
        expect(concat(out)).toEqual(spliceJson([doc.slice()], tag))
        expect(splicer.replaced).toBe(metadata.placeholders)
      }),
      { numRuns: 400 },
    )
  })

  it('leaves a placeholder spelled with escapes, which only the JSON splicer finds', () => {
    const doc = encoder.encode('{"a":"\\u005BMODELSERVERTAG]"}')
    expect(splice([doc], 't')).toEqual(doc)
    expect(new TextDecoder().decode(spliceJson([doc], 't'))).toBe('{"a":"t"}')
  })
})
