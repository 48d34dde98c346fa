import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import { FIXTURES, PLACEHOLDER } from '../support/fixtures'
import { ALLOWED_VECTORS, REFUSED_VECTORS, VECTORS } from '../support/export-safety-vectors'

/** The same export as a plugin fetched it with `tag=bde`, and how it checks it. */
const fetched = (text: string) => text.replaceAll(PLACEHOLDER, 'bde')
const BDE = { tag: 'bde' }
/** The published form, read as the service reads it at publish. */
const PUBLISHED = { tag: PLACEHOLDER }
/** The one refused vector that is a fetched form (no placeholder): the one-argument check accepts it. */
const FETCHED_FORM = 'refused-selector-tag-of-another-model.json'

describe('the display-model vocabulary on the test vectors', () => {
  it('has every file of the manifest, refused ones with a path and what they name', () => {
    expect(ALLOWED_VECTORS.length).toBeGreaterThanOrEqual(10)
    expect(REFUSED_VECTORS.length).toBeGreaterThanOrEqual(40)
    for (const vector of REFUSED_VECTORS) {
      expect(vector.path, vector.file).toBeTypeOf('string')
      expect(vector.found, vector.file).toBeTypeOf('string')
    }
    expect(new Set(VECTORS.map((vector) => vector.file)).size).toBe(VECTORS.length)
  })

  it.each(Object.entries(FIXTURES))(
    'accepts the real export %s, published and fetched',
    (_, text) => {
      expect(checkExportSafety(text)).toEqual({ safe: true })
      expect(checkExportSafety(fetched(text), BDE)).toEqual({ safe: true })
    },
  )

  it.each(ALLOWED_VECTORS.map((vector) => [vector.file, vector] as const))(
    'accepts %s, published and fetched',
    (_, vector) => {
      expect(checkExportSafety(vector.text)).toEqual({ safe: true })
      expect(checkExportSafety(fetched(vector.text), BDE)).toEqual({ safe: true })
    },
  )

  it.each(REFUSED_VECTORS.map((vector) => [vector.file, vector] as const))(
    'refuses %s, naming its path and what it found, published and fetched',
    (_, vector) => {
      const verdict = checkExportSafety(vector.text, PUBLISHED)
      expect(verdict).toMatchObject({ safe: false, path: vector.path, found: vector.found })
      if (verdict.safe) return
      // Without a tag the check reads the form from the export: the same, but for a fetched one.
      expect(checkExportSafety(vector.text)).toEqual(
        vector.file === FETCHED_FORM ? { safe: true } : verdict,
      )
      expect(verdict.message).toContain(vector.path)
      expect(verdict.message).toContain(vector.found)
      // The verdict never depends on the placeholder's spelling (a length counts its characters),
      // but for an export without one, which names another model's tags, and for the placeholder
      // where the editor never writes it, which a fetched form no longer holds.
      if (!vector.text.includes(PLACEHOLDER) || verdict.reason === 'placeholder') return
      expect(checkExportSafety(fetched(vector.text), BDE)).toMatchObject({
        safe: false,
        reason: verdict.reason,
        path: vector.path,
        ...(verdict.reason === 'length' || vector.found!.endsWith('\u2026')
          ? {}
          : { found: fetched(vector.found!) }),
      })
    },
  )

  it('reads bytes and parsed objects as it reads text', () => {
    for (const vector of VECTORS) {
      const verdict = checkExportSafety(vector.text)
      expect(checkExportSafety(new TextEncoder().encode(vector.text))).toEqual(verdict)
      // An object has lost repeated members and escapes: only the values are left to check.
      const object: unknown = JSON.parse(vector.text)
      expect(checkExportSafety(object as object).safe, vector.file).toBe(verdict.safe)
    }
  })

  it('throws on text that is not JSON, as JSON.parse does', () => {
    expect(() => checkExportSafety('{"content":')).toThrow(SyntaxError)
  })

  it('throws SyntaxError on bytes that start with a byte-order mark, as JSON.parse does', () => {
    const bytes = new TextEncoder().encode(ALLOWED_VECTORS[0]!.text)
    const withMark = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes])
    expect(() => checkExportSafety(withMark)).toThrow(SyntaxError)
    expect(() => checkExportSafety(withMark.buffer)).toThrow(SyntaxError)
    expect(() => checkExportSafety(`\ufeff${ALLOWED_VECTORS[0]!.text}`)).toThrow(SyntaxError)
  })

  it('reads a raw U+FEFF inside a name as a character, as JSON.parse does', () => {
    const text = '{"content":{"\ufeffpassengers":[]}}'
    expect(Object.keys((JSON.parse(text) as { content: object }).content)).toEqual([
      '\ufeffpassengers',
    ])
    expect(checkExportSafety(new TextEncoder().encode(text))).toMatchObject({
      safe: false,
      reason: 'member',
      path: 'content["\\ufeffpassengers"]',
    })
  })

  it('reads passenger strings up to 2 MiB as written, all of them together', () => {
    // A string of exactly `size` bytes as written (a `"` is written `\\"`): a tagged part, tiny
    // compounds, the last one padded with spaces inside its braces (each compound named as
    // every reader cuts it).
    // Each placeholder counts as the longest tag it may become when fetched (84 more).
    const written = (text: string) =>
      text.length + text.split('"').length - 1 + 84 * (text.split(PLACEHOLDER).length - 1)
    const passengerString = (size: number) => {
      const head = `{id:"minecraft:block_display",Tags:['[MODELSERVERTAG]_0']}`
      const part = ',{id:"minecraft:block_display"}'
      const text = head + part.repeat(Math.floor((size - written(head)) / written(part)))
      return `${text.slice(0, -1)}${' '.repeat(size - written(text))}}`
    }
    const exact = [passengerString(1_048_576), passengerString(1_048_576)]
    expect(written(exact[0]!) + written(exact[1]!)).toBe(2_097_152)
    expect(checkExportSafety({ content: { passengers: exact } })).toEqual({ safe: true })
    const over = [...exact.slice(0, 1), `${exact[1]} `]
    expect(checkExportSafety({ content: { passengers: over } })).toMatchObject({
      safe: false,
      reason: 'length',
      path: 'content.passengers[1]',
      found: '2097153',
    })
  })

  it('reads keyframes of more than 16,000 frames a frame at a time, to the same verdicts', () => {
    const frames = Array.from({ length: 20_000 }, (_, i) => `"${i}":[]`).join(',')
    const padded = (text: string) =>
      text.replace('"anim_keyframes":{', `"anim_keyframes":{"pad":{${frames}},`)
    const vectors = VECTORS.filter((vector) => vector.text.includes('"anim_keyframes":{"'))
    expect(vectors.length).toBeGreaterThan(30)
    for (const vector of vectors) {
      expect(checkExportSafety(padded(vector.text)), vector.file).toEqual(
        checkExportSafety(vector.text),
      )
    }
    const bad = padded(ALLOWED_VECTORS[0]!.text).replace('"pad":{"0":[]', '"pad":{"0":[1]')
    expect(checkExportSafety(bad)).toMatchObject({
      reason: 'shape',
      path: 'content.datapack.anim_keyframes.pad.0[0]',
    })
  })

  it('reads a surrogate pair written as two escapes as one character, as JSON.parse does', () => {
    const vector = VECTORS.find((v) => v.file === 'refused-foreign-key-in-data-merge.json')!
    const text = vector.text.replace('{Command', '{\\ud83d\\ude00')
    expect(checkExportSafety(text)).toMatchObject({ reason: 'syntax', found: '\u{1F600}' })
  })

  it('holds a fetched export to the tag it was fetched with', () => {
    const text = fetched(FIXTURES['reading-41-displays']!)
    expect(checkExportSafety(text, { tag: 'bde' })).toEqual({ safe: true })
    expect(checkExportSafety(text, { tag: 'other' })).toMatchObject({ reason: 'selector' })
    // Without a tag: a fetched form of some tag, its selectors held to its parts' own tags.
    expect(checkExportSafety(text)).toEqual({ safe: true })
    expect(checkExportSafety(text, PUBLISHED)).toMatchObject({
      reason: 'selector',
      found: 'tag=bde_0',
    })
    expect(() => checkExportSafety(text, { tag: '' })).toThrow(RangeError)
  })
})
