/** Property-based tests of the tag rules and of publication ID validation (docs/api.md#parameters). */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isPublicationId } from '../../src/contract/publication-id'
import { sanitizeTag } from '../../src/exports/testing'
import { DEFAULT_TAG, MAX_TAG_LENGTH } from '../../src/contract/wire'
import { idAt, idSpace, shardSize } from '../support/id-layout'
import { FULL_ID_SPACE_SIZE } from '../support/documented-limits'

const ALLOWED = /^[A-Za-z0-9_-]+$/
const ALLOWED_CHARACTER = /[A-Za-z0-9_-]/

/** Any string, biased towards the characters the rules keep and the ones they drop. */
const rawTagArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({
    unit: fc.constantFrom('a', 'Z', '0', '_', '-', ' ', '"', '\\', '\r', '\n', 'é', '😀', '%'),
    maxLength: 250,
  }),
  fc.stringMatching(/^[A-Za-z0-9_-]{90,120}$/),
)

/** Decimal digits of other scripts (Arabic-Indic, Devanagari, fullwidth, ...), never ASCII. */
const FOREIGN_DIGITS = Array.from({ length: 0x1fbfa }, (_, code) =>
  String.fromCodePoint(code),
).filter((ch) => /\p{Nd}/u.test(ch) && !/[0-9]/.test(ch))

const asciiDigitsArb = fc.string({
  unit: fc.constantFrom(...'0123456789'),
  minLength: 6,
  maxLength: 6,
})

describe('the tag rules', () => {
  it('give only ASCII letters, digits, _ and -, at most 100 of them and never none', () => {
    fc.assert(
      fc.property(fc.option(rawTagArb, { nil: undefined }), (raw) => {
        const tag = sanitizeTag(raw)
        expect(tag).toMatch(ALLOWED)
        expect(tag.length).toBeGreaterThan(0)
        expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH)
      }),
      { numRuns: 1000 },
    )
  })

  it('are idempotent', () => {
    fc.assert(
      fc.property(rawTagArb, (raw) => {
        expect(sanitizeTag(sanitizeTag(raw))).toBe(sanitizeTag(raw))
      }),
      { numRuns: 1000 },
    )
  })

  it('keep the allowed characters in order and case, cut to 100, or give the default', () => {
    fc.assert(
      fc.property(rawTagArb, (raw) => {
        const kept = [...raw].filter((ch) => ALLOWED_CHARACTER.test(ch)).join('')
        expect(sanitizeTag(raw)).toBe(kept === '' ? DEFAULT_TAG : kept.slice(0, MAX_TAG_LENGTH))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('publication ID validation', () => {
  it('accepts every string of exactly six ASCII digits', () => {
    fc.assert(
      fc.property(asciiDigitsArb, (id) => {
        expect(isPublicationId(id)).toBe(true)
      }),
    )
  })

  it('rejects any other string', () => {
    const other = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !/^[0-9]{6}$/.test(s))
    fc.assert(
      fc.property(other, (id) => {
        expect(isPublicationId(id)).toBe(false)
      }),
      { numRuns: 1000 },
    )
  })

  it('rejects six digits with any of them from another script', () => {
    fc.assert(
      fc.property(
        asciiDigitsArb,
        fc.uniqueArray(fc.nat({ max: 5 }), { minLength: 1 }),
        fc.constantFrom(...FOREIGN_DIGITS),
        (id, positions, digit) => {
          const chars = [...id]
          for (const at of positions) chars[at] = digit
          expect(isPublicationId(chars.join(''))).toBe(false)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('rejects a valid ID with a sign, space, plus, zero or exponent that Number() would accept', () => {
    const decorated = fc
      .tuple(
        asciiDigitsArb,
        fc.constantFrom('+', '-', ' ', '\t', '\n', '0', '\u00a0', '\ufeff'),
        fc.constantFrom('', ' ', '\n', '.0', 'e0', '\u00a0'),
      )
      .map(([id, before, after]) => before + id + after)
    fc.assert(
      fc.property(decorated, (id) => {
        expect(isPublicationId(id)).toBe(false)
      }),
    )
  })

  // That each of them is looked up in its shard: test/ids/id-allocator.test.ts.
  it('accepts every ID of every shard the docs lay out', () => {
    const space = idSpace(FULL_ID_SPACE_SIZE)
    const issued = fc
      .nat({ max: space.shards - 1 })
      .chain((shard) => fc.tuple(fc.constant(shard), fc.nat({ max: shardSize(space, shard) - 1 })))
    fc.assert(
      fc.property(issued, ([shard, slot]) => {
        expect(isPublicationId(String(idAt(space, shard, slot)))).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})
