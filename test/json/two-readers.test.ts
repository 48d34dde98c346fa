/**
 * The service's two JSON byte readers held to the same vectors: src/json/'s scanner (publish
 * validation, substitution's streaming walk) and the display-model check's `JsonBytes`
 * (src/export-safety/json-bytes.ts). Why two remain: docs/architecture.md#which-reader-reads-what.
 *
 * Every vector is a document both read. Each value of it is reported the same way by both: its
 * kind (the first byte), where it ends (the check skips it; the scanner, started at its first
 * byte, stops at the first byte after it that is not whitespace), and for an object its members'
 * names in document order, repeats included (the check decodes them; the scanner gives their
 * bytes, decoded here with `JSON.parse`) and where their values start; for a string, its text
 * (the check decodes it; `JSON.parse` of the bytes the scanner delimits). Then each value is
 * compared alike, down to the leaves. One set of limits: the scanner refuses what the publish
 * validator refuses (`MAX_NESTING_DEPTH`), and the check reads, at that depth, what it accepts.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_NESTING_DEPTH } from '../../src/contract/wire'
import { JsonBytes } from '../../src/export-safety/testing'
import { JsonScanner, MalformedExportError, type JsonKind } from '../../src/json'
import { VECTORS } from '../support/export-safety-vectors'
import { FIXTURES } from '../support/fixtures'
import { documentArb } from '../support/json-arbitraries'

interface Report {
  kind: JsonKind
  end: number
  members?: Array<[name: string, valueStart: number]>
  text?: string
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const encoder = new TextEncoder()

/** What the scanner reports of the value at `start` of `bytes`. */
function scannerReport(bytes: Uint8Array, start: number): Report {
  let kind: JsonKind | null = null
  const members: Array<[string, number]> = []
  const scanner = new JsonScanner({
    grammar: 'strict',
    observer: {
      root: (found) => (kind ??= found),
      member: (nameStart, nameEnd, _kind, offset) =>
        members.push([
          JSON.parse(decoder.decode(bytes.subarray(start + nameStart, start + nameEnd))) as string,
          start + offset,
        ]),
    },
  })
  let end = bytes.length
  try {
    scanner.scanWhole(bytes.subarray(start))
  } catch (error) {
    if (!(error instanceof MalformedExportError)) throw error
    end = start + error.offset
  }
  const report: Report = { kind: kind!, end }
  if (kind === 'object') report.members = members
  if (kind === 'string') {
    report.text = JSON.parse(decoder.decode(bytes.subarray(start, end)).trimEnd()) as string
  }
  return report
}

/** What the check's reader reports of the value at `start`. */
function checkReport(json: JsonBytes, bytes: Uint8Array, start: number): Report {
  const kind = json.typeAt(start)
  const report: Report = { kind, end: skipSpace(bytes, json.skip(start)) }
  if (kind === 'object') {
    const members: Array<[string, number]> = []
    json.forEachMember(start, (name, valueStart) => {
      members.push([name, valueStart])
      return json.skip(valueStart)
    })
    report.members = members
  }
  if (kind === 'string') report.text = json.string(start)
  return report
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[at]!)) at++
  return at
}

/** Compares the two readers on every value of `bytes`; returns how many values were compared. */
function compareEverywhere(bytes: Uint8Array): number {
  const json = new JsonBytes(bytes)
  let compared = 0
  const pending = [json.root()]
  while (pending.length > 0) {
    const start = pending.pop()!
    const check = checkReport(json, bytes, start)
    expect(scannerReport(bytes, start), `the value at byte ${start}`).toEqual(check)
    compared++
    for (const [, valueStart] of check.members ?? []) pending.push(valueStart)
    if (check.kind === 'array') {
      const { elements } = json.read(start, { elements: true })
      for (let i = 0; i < elements!.length; i += 2) pending.push(elements![i]!)
    }
  }
  return compared
}

describe('the scanner and the check read JSON alike', () => {
  it('on every export-safety vector and every real export', () => {
    const texts = [...VECTORS.map((vector) => vector.text), ...Object.values(FIXTURES)]
    let values = 0
    for (const text of texts) values += compareEverywhere(encoder.encode(text))
    expect(texts.length).toBeGreaterThan(80)
    expect(values).toBeGreaterThan(5_000)
  })

  it('on hand-picked spellings: escapes, surrogates, U+FEFF in names, repeated names, numbers', () => {
    const documents = [
      '{}',
      ' \r\n\t{ } \n',
      '{"a":[],"b":{},"c":"","d":0,"e":-0.5e-3,"f":1E+2,"g":true,"h":false,"i":null}',
      '{"\\u0063ontent":{"x":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"}}',
      '{"\uFEFFcontent":{},"content":{},"content":[1,2]}',
      '{"emoji":"\uD83D\uDE00","escaped":"\\ud83d\\ude00","lone":"\\ud83d"}',
      '{"a" : [ 1 , [ 2 , [ 3 ] ] , { "b" : [ ] } ] , "c" : "]}\\"{["}',
      '{"content":{"passengers":["{id:\\"minecraft:block_display\\",Tags:[\\"[MODELSERVERTAG]_0\\"]}"]}}',
    ]
    for (const document of documents) compareEverywhere(encoder.encode(document))
  })

  it('on generated documents', () => {
    fc.assert(
      fc.property(documentArb, (bytes) => {
        compareEverywhere(bytes)
      }),
      { numRuns: 300 },
    )
  })

  it('at the limit the validator holds documents to, and the scanner refuses one level more', () => {
    const nested = (levels: number) =>
      encoder.encode('{"a":'.repeat(levels - 1) + '[]' + '}'.repeat(levels - 1))
    expect(compareEverywhere(nested(MAX_NESTING_DEPTH))).toBe(MAX_NESTING_DEPTH)
    const scanner = new JsonScanner({ grammar: 'strict', maxDepth: MAX_NESTING_DEPTH })
    expect(() => scanner.scanWhole(nested(MAX_NESTING_DEPTH + 1))).toThrow(
      expect.objectContaining({ reason: 'too-deep' }),
    )
  })
})
