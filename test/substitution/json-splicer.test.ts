import { describe, expect, it } from 'vitest'
import animated from '../../fixtures/animated-80-displays.json?raw'
import reading from '../../fixtures/reading-41-displays.json?raw'
import stoneGate from '../../fixtures/stone-gate-136-displays.json?raw'
import { concat, countPlaceholders, splice, spliceJson } from '../support/substitution-driver'
import { MalformedExportError, PLACEHOLDER } from '../../src/json'
import { substitution } from '../../src/substitution'
import { substituteTag } from '../support/substitute-tag'

const FIXTURES = [
  { name: 'animated-80-displays', text: animated, placeholders: 1272 },
  { name: 'reading-41-displays', text: reading, placeholders: 802 },
  { name: 'stone-gate-136-displays', text: stoneGate, placeholders: 1668 },
]
const CHUNK_BYTES = 64 * 1024
const encoder = new TextEncoder()
const decoder = new TextDecoder()
const bytes = (text: string) => encoder.encode(text)

/** The placeholder with the characters at `escaped` written as `\uHHHH` (upper or lower hex). */
function escapedPlaceholder(escaped: number[], lowerHex = false): string {
  return [...PLACEHOLDER]
    .map((ch, k) => {
      if (!escaped.includes(k)) return ch
      const hex = ch.charCodeAt(0).toString(16).padStart(4, '0')
      return '\\u' + (lowerHex ? hex.toLowerCase() : hex.toUpperCase())
    })
    .join('')
}

/**
 * Cuts `input` at the given offsets (ascending). The pieces are views into one copy of it that
 * starts `shift` bytes into its buffer, so that they sit at every alignment.
 */
function split(input: Uint8Array, cuts: number[], shift = 0): Uint8Array[] {
  const copy = new Uint8Array(input.length + shift).subarray(shift)
  copy.set(input)
  const bounds = [0, ...cuts, input.length]
  return bounds.slice(1).map((end, k) => copy.subarray(bounds[k], end))
}

/** The JSON splicer's output for a document given as text, in one chunk, as text. */
function substitute(text: string, tag = 'bde'): string {
  return decoder.decode(spliceJson([bytes(text)], tag))
}

/** Streams `chunks` through `substituteTag` and collects what comes out. */
async function stream(chunks: Uint8Array[], tag = 'bde'): Promise<Uint8Array[]> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
  const out: Uint8Array[] = []
  const reader = source.pipeThrough(substituteTag(tag)).getReader()
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value)
  return out
}

function expectMalformed(chunks: Uint8Array[]): void {
  expect(() => spliceJson(chunks)).toThrow(MalformedExportError)
}

/**
 * A slow model of the rules to check the JSON splicer against: split each string into units (a raw
 * byte or an escape) and replace every run of 16 units spelling the placeholder.
 */
function reference(
  doc: Uint8Array,
  tag: string,
): { out: Uint8Array; count: number; bytes: number } {
  const out: number[] = []
  let count = 0
  let placeholderBytes = 0
  let i = 0
  while (i < doc.length) {
    if (doc[i] !== 0x22) {
      out.push(doc[i++]!)
      continue
    }
    out.push(doc[i++]!)
    const units: { start: number; end: number; char: number }[] = []
    while (doc[i] !== 0x22) {
      const length = doc[i] !== 0x5c ? 1 : doc[i + 1] === 0x75 ? 6 : 2
      const hex = decoder.decode(doc.subarray(i + 2, i + 6))
      const char = length === 1 ? doc[i]! : length === 6 ? parseInt(hex, 16) : -1
      units.push({ start: i, end: i + length, char })
      i += length
    }
    for (let j = 0; j < units.length;) {
      const run = units.slice(j, j + 16)
      if (run.length === 16 && run.every((u, k) => u.char === PLACEHOLDER.charCodeAt(k))) {
        out.push(...bytes(tag))
        count++
        placeholderBytes += run[15]!.end - run[0]!.start
        j += 16
      } else {
        for (let b = units[j]!.start; b < units[j]!.end; b++) out.push(doc[b]!)
        j++
      }
    }
    out.push(doc[i++]!)
  }
  return { out: new Uint8Array(out), count, bytes: placeholderBytes }
}

/** A small deterministic PRNG (mulberry32), so property tests are repeatable. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Pieces of string content that stress the rules. */
const PIECES = [
  PLACEHOLDER,
  PLACEHOLDER,
  '[MODELSERVERTAG',
  'MODELSERVERTAG]',
  '[',
  '[[',
  ']',
  '\\\\',
  '\\"',
  '\\n',
  '\\u0041',
  '\\\\u005B',
  'é',
  '😀',
  'tag=',
  '_0',
  ' ',
]

/** A random document whose strings are made of `PIECES` and escaped placeholders. */
function randomDocument(next: () => number): string {
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!
  const text = () => {
    let s = ''
    const length = Math.floor(next() * 8)
    for (let k = 0; k < length; k++) {
      if (next() < 0.2) {
        const escaped = [...PLACEHOLDER].map((_, u) => u).filter(() => next() < 0.3)
        s += escapedPlaceholder(escaped, next() < 0.5)
      } else s += pick(PIECES)
    }
    return `"${s}"`
  }
  const value = (depth: number): string => {
    const roll = next()
    if (depth > 2 || roll < 0.4) return text()
    if (roll < 0.5) return pick(['1.0', '1e2', '-0', '12345678901234567890', 'true', 'null'])
    if (roll < 0.7) return `[ ${[value(depth + 1), value(depth + 1)].join(' , ')} ]`
    return `{${text()}:${value(depth + 1)},\n\t${text()} : ${value(depth + 1)}}`
  }
  return `{${text()}:${value(0)},${text()}:${value(0)}}`
}

/** Random cut points of a `length`-byte input. */
function randomCuts(next: () => number, length: number): number[] {
  const cuts = new Set<number>()
  const count = Math.floor(next() * 6)
  for (let k = 0; k < count; k++) cuts.add(1 + Math.floor(next() * (length - 1)))
  return [...cuts].sort((a, b) => a - b)
}

/** A small document holding every case of the rules. */
const EVERY_CASE = [
  '{"[MODELSERVERTAG]": {"a":"x[MODELSERVERTAG]_0", "b":"\\u005BMODELSERVERTAG\\u005d"',
  ', "c":"\\\\u005BMODELSERVERTAG]", "d":"[MODELSERVERTAG\\\\u005D", "e":"\\\\[MODELSERVERTAG]"',
  ', "f":"[[MODELSERVERTAG]]", "g":"[MODELSERVERTAG", "h":"😀[MODELSERVERTAG]😀é"',
  ', "i":"[MODEL\\u0053ERVERTAG]", "n":[1.0, 1e2, 12345678901234567890, -0, true, null]',
  ', "w" : \t[ ]\r\n}}',
].join('')
const EVERY_CASE_OUT = [
  '{"bde": {"a":"xbde_0", "b":"bde"',
  ', "c":"\\\\u005BMODELSERVERTAG]", "d":"[MODELSERVERTAG\\\\u005D", "e":"\\\\bde"',
  ', "f":"[bde]", "g":"[MODELSERVERTAG", "h":"😀bde😀é"',
  ', "i":"bde", "n":[1.0, 1e2, 12345678901234567890, -0, true, null]',
  ', "w" : \t[ ]\r\n}}',
].join('')

describe('substituting the tag', () => {
  it('gives the fixtures the bytes of a plain text replacement', async () => {
    for (const { text } of FIXTURES) {
      const expected = bytes(text.replaceAll(PLACEHOLDER, 'bde'))
      const input = bytes(text)
      expect(spliceJson([input])).toEqual(expected)
      const cuts = Array.from({ length: Math.floor(input.length / 4096) }, (_, k) => (k + 1) * 4096)
      expect(spliceJson(split(input, cuts))).toEqual(expected)
      expect(spliceJson(split(input, cuts), 'bde', true)).toEqual(expected)
      expect(concat(await stream(split(input, cuts)))).toEqual(expected)
    }
  })

  it('gives the fixtures the same bytes through the placeholder splicer, cut anywhere', () => {
    for (const { text } of FIXTURES) {
      const expected = bytes(text.replaceAll(PLACEHOLDER, 'bde'))
      const input = bytes(text)
      expect(splice([input])).toEqual(expected)
      // Cuts 1,009 bytes apart land inside placeholders again and again.
      for (const step of [4096, 1009, 97]) {
        const cuts = Array.from(
          { length: Math.floor(input.length / step) },
          (_, k) => (k + 1) * step,
        )
        expect(splice(split(input, cuts))).toEqual(expected)
        expect(splice(split(input, cuts), 'a_much_longer_tag_than_16', true)).toEqual(
          bytes(text.replaceAll(PLACEHOLDER, 'a_much_longer_tag_than_16')),
        )
      }
    }
  })

  it('replaces placeholders in object keys', () => {
    expect(substitute('{"[MODELSERVERTAG]_0":{"[MODELSERVERTAG]":1}}')).toBe('{"bde_0":{"bde":1}}')
  })

  it('replaces a placeholder with any one of its characters escaped, in upper or lower hex', () => {
    for (let k = 0; k < PLACEHOLDER.length; k++) {
      for (const lower of [false, true]) {
        const doc = `{"a":"<${escapedPlaceholder([k], lower)}>"}`
        expect(substitute(doc), doc).toBe('{"a":"<bde>"}')
      }
    }
  })

  it('replaces a placeholder with every character escaped', () => {
    const all = [...PLACEHOLDER].map((_, k) => k)
    expect(substitute(`{"a":"${escapedPlaceholder(all)}"}`)).toBe('{"a":"bde"}')
    expect(substitute(`{"a":"\\u005bMODELSERVERTAG\\u005D"}`)).toBe('{"a":"bde"}')
  })

  it('leaves lowercase letters and escapes of other characters alone', () => {
    const doc = '{"a":"[modelservertag] [MODELSERVERTAg] \\u005BMODELSERVERTAG\\u005E \\n\\/"}'
    expect(substitute(doc)).toBe(doc)
  })

  it('treats a backslash escaped by another as a literal, not as an escape', () => {
    expect(substitute('{"a":"\\\\u005BMODELSERVERTAG]"}')).toBe('{"a":"\\\\u005BMODELSERVERTAG]"}')
    expect(substitute('{"a":"[MODELSERVERTAG\\\\u005D"}')).toBe('{"a":"[MODELSERVERTAG\\\\u005D"}')
    expect(substitute('{"a":"\\\\[MODELSERVERTAG]"}')).toBe('{"a":"\\\\bde"}')
    expect(substitute('{"a":"\\\\\\u005BMODELSERVERTAG]"}')).toBe('{"a":"\\\\bde"}')
  })

  it('finds the placeholder inside extra brackets and leaves a truncated one alone', () => {
    expect(substitute('{"a":"[[MODELSERVERTAG]]"}')).toBe('{"a":"[bde]"}')
    expect(substitute('{"a":"[MODELSERVERTAG","b":"MODELSERVERTAG]"}')).toBe(
      '{"a":"[MODELSERVERTAG","b":"MODELSERVERTAG]"}',
    )
    expect(substitute('{"a":"[MODELSERVERTAG[MODELSERVERTAG]"}')).toBe('{"a":"[MODELSERVERTAGbde"}')
  })

  it('leaves numbers, literals, whitespace and key order exactly as written', () => {
    const doc = '\n { "z" : [ 1.0 , 1e2,12345678901234567890,-0.5E-3 ] ,\t"a":true,"n" :null }\r\n '
    expect(substitute(doc)).toBe(doc)
  })

  it('writes any allowed tag, up to 100 characters', () => {
    const long = 'A-z_9'.repeat(20)
    const doc = '{"a":"[MODELSERVERTAG]","b":"\\u005BMODELSERVERTAG]"}'
    for (const reuseInput of [false, true]) {
      const out = decoder.decode(spliceJson([bytes(doc)], long, reuseInput))
      expect(out).toBe(`{"a":"${long}","b":"${long}"}`)
    }
  })
})

describe('streaming', () => {
  const input = bytes(EVERY_CASE)

  it('gives the same output for every single split of a document with every case', () => {
    expect(decoder.decode(spliceJson([input]))).toBe(EVERY_CASE_OUT)
    for (let cut = 1; cut < input.length; cut++) {
      expect(decoder.decode(spliceJson(split(input, [cut]))), `cut at ${cut}`).toBe(EVERY_CASE_OUT)
    }
  })

  it('gives the same output for every pair of split points', () => {
    const expected = bytes(EVERY_CASE_OUT)
    for (let a = 1; a < input.length; a++) {
      for (let b = a + 1; b < input.length; b++) {
        const out = spliceJson(split(input, [a, b]), 'bde', (a + b) % 2 === 0)
        if (!out.every((byte, k) => byte === expected[k]) || out.length !== expected.length) {
          expect(decoder.decode(out), `cuts at ${a} and ${b}`).toBe(EVERY_CASE_OUT)
        }
      }
    }
  })

  it('gives the same output whatever the alignment of the chunks in memory', () => {
    for (let shift = 0; shift < 4; shift++) {
      for (let cut = 1; cut < input.length; cut += 7) {
        const out = spliceJson(split(input, [cut], shift), 'bde', cut % 2 === 0)
        expect(decoder.decode(out)).toBe(EVERY_CASE_OUT)
      }
    }
  })

  it('streams a 25 MiB document without holding it back', async () => {
    const line = `"data merge entity @e[tag=${PLACEHOLDER}_0] {text:\\"😀\\"}",`
    const lines = Math.ceil(CHUNK_BYTES / line.length)
    const chunk = bytes(line.repeat(lines))
    const total = 25 * 1024 * 1024
    const jsonSplicer = substitution('bde', { escapedPlaceholders: true })
    const head = jsonSplicer.push(bytes('{"lines":['))
    let written = head.length
    let read = 0
    while (read < total) {
      const out = jsonSplicer.push(chunk.slice())
      // Each chunk comes out at once, less what its placeholders lose (16 bytes become 3).
      expect(out.length).toBe(chunk.length - lines * 13)
      read += chunk.length
      written += out.length
    }
    written += jsonSplicer.push(bytes('"end"]}')).length + jsonSplicer.finish().length
    const perLine = bytes(line).length - PLACEHOLDER.length + 3
    expect(written).toBe(10 + (read / bytes(line).length) * perLine + 7)
  })

  it('handles one-byte chunks', () => {
    const cuts = Array.from({ length: input.length - 1 }, (_, k) => k + 1)
    expect(decoder.decode(spliceJson(split(input, cuts)))).toBe(EVERY_CASE_OUT)
    expect(decoder.decode(spliceJson(split(input, cuts), 'bde', true))).toBe(EVERY_CASE_OUT)
  })

  it('replaces a placeholder beside 4-byte UTF-8 characters at every split', () => {
    const doc = bytes('{"a":"😀[MODELSERVERTAG]😀\\u005BMODELSERVERTAG]😀"}')
    for (let cut = 1; cut < doc.length; cut++) {
      expect(decoder.decode(spliceJson(split(doc, [cut])))).toBe('{"a":"😀bde😀bde😀"}')
    }
  })

  it('holds back no more than a cut escaped placeholder at a chunk end', () => {
    // With a 16-byte tag only the escaped placeholder changes the length (96 bytes become 16),
    // so what is held back is the rest of the difference between bytes in and bytes out.
    const tag = 'abcdefghijklmnop'
    const all = [...PLACEHOLDER].map((_, k) => k)
    const head = '{"a":"x '
    const doc = bytes(`${head}${escapedPlaceholder(all)} [MODELSERVERTAG] ${'y'.repeat(200)}"}`)
    const escapedEnd = head.length + 96
    let most = 0
    for (let cut = 1; cut < doc.length; cut++) {
      const out = substitution(tag, { escapedPlaceholders: true }).push(doc.slice(0, cut))
      most = Math.max(most, cut - out.length - (cut >= escapedEnd ? 80 : 0))
    }
    expect(most).toBe(95)
  })

  it('matches a model of the rules on random documents cut at random points', () => {
    const next = random(0x5eed)
    for (let round = 0; round < 300; round++) {
      const doc = bytes(randomDocument(next))
      const expected = reference(doc, 'bde')
      const chunks = split(doc, randomCuts(next, doc.length), round % 4)
      const out = spliceJson(chunks, 'bde', next() < 0.5)
      expect(decoder.decode(out), decoder.decode(doc)).toBe(decoder.decode(expected.out))
      expect(countPlaceholders(doc)).toEqual({
        placeholders: expected.count,
        placeholderBytes: expected.bytes,
      })
    }
  })

  it('enqueues at most one output chunk per input chunk through the stream', async () => {
    const chunks = split(input, [3, 40, 41, 100, 101, 102])
    const out = await stream(chunks)
    expect(out.length).toBeLessThanOrEqual(chunks.length)
    expect(decoder.decode(concat(out))).toBe(EVERY_CASE_OUT)
  })
})

describe('counting placeholders', () => {
  it('counts the fixtures, 16 bytes each', () => {
    for (const { text, placeholders } of FIXTURES) {
      expect(countPlaceholders(bytes(text))).toEqual({
        placeholders,
        placeholderBytes: placeholders * 16,
      })
    }
  })

  it('counts escaped placeholders by the bytes they occupy as written', () => {
    expect(countPlaceholders(bytes(EVERY_CASE))).toEqual({
      placeholders: 7,
      placeholderBytes: 5 * 16 + 26 + 21,
    })
    const all = [...PLACEHOLDER].map((_, k) => k)
    expect(countPlaceholders(bytes(`{"${escapedPlaceholder(all)}":0}`))).toEqual({
      placeholders: 1,
      placeholderBytes: 96,
    })
  })

  it('rejects a malformed document', () => {
    expect(() => countPlaceholders(bytes('{"a":"[MODELSERVERTAG]"'))).toThrow(MalformedExportError)
    expect(() => countPlaceholders(bytes('{"a":"x\\u00'))).toThrow(MalformedExportError)
  })
})

describe('rejecting malformed input', () => {
  it('rejects documents that are not one whole object', () => {
    const cases = [
      '',
      '  \n',
      '[]',
      '"x"',
      '1',
      'x{}',
      '{]',
      '{"a":[}',
      '{"a":{]}',
      '{"a":1}}',
      '{"a":1} x',
      '{"a":1}{}',
      '{"a":1}"b"',
      '{"a":"x',
      '{"a":"x\\',
      '{"a":"x\\u00',
      '{"a":"[MODELSERVERTAG',
      '{"a":1',
      '{"a":"\\q"}',
      '{"a":"\\u00G0"}',
    ]
    for (const doc of cases) {
      expect(() => spliceJson([bytes(doc)]), JSON.stringify(doc)).toThrow(MalformedExportError)
    }
  })

  it('rejects every cut of a small document', () => {
    const input = bytes(EVERY_CASE)
    // The document ends with its root object's `}`, so no shorter cut is whole.
    for (let length = 0; length < input.length; length++) {
      expectMalformed([input.slice(0, length)])
      expectMalformed(split(input.slice(0, length), [Math.floor(length / 2)]))
    }
  })

  it('rejects the fixtures cut short at many points', () => {
    for (const { text } of FIXTURES) {
      const input = bytes(text)
      for (let length = 0; length < input.length; length += 997) {
        expectMalformed(split(input.slice(0, length), [Math.floor(length / 3)]))
      }
      expectMalformed([input.slice(0, input.length - 1)])
    }
  })

  it('tells deep nesting from mismatched nesting', () => {
    const deep = (open: string, close: string) => `{"a":${open.repeat(5000)}${close.repeat(5000)}}`
    expect(substitute(deep('[{"b":', '}]'))).toBe(deep('[{"b":', '}]'))
    expectMalformed([bytes(deep('[{"b":', ']}'))])
    expectMalformed([bytes(deep('[', ']').slice(0, -1) + ']}')])
  })

  it('keeps failing after the first error', () => {
    const jsonSplicer = substitution('bde', { escapedPlaceholders: true })
    expect(() => jsonSplicer.push(bytes('{]'))).toThrow(MalformedExportError)
    expect(() => jsonSplicer.push(bytes('}'))).toThrow(MalformedExportError)
    expect(() => jsonSplicer.finish()).toThrow(MalformedExportError)
  })

  it('errors the stream on a cut-short document', async () => {
    const input = bytes(reading)
    await expect(stream(split(input.slice(0, 100_000), [50_000]))).rejects.toThrow(
      MalformedExportError,
    )
    await expect(stream([bytes('{"a":1}]')])).rejects.toThrow(MalformedExportError)
  })
})
