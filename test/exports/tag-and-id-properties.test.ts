/**
 * Property-based tests of the tag rules, through the Worker, and of publication ID validation
 * (docs/api.md#parameters).
 */
import fc from 'fast-check'
import { reset } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isPublicationId } from '../../src/contract/publication-id'
import { DEFAULT_TAG, MAX_TAG_LENGTH } from '../../src/contract/wire'
import { idAt, idSpace, shardSize } from '../support/id-layout'
import { FULL_ID_SPACE_SIZE } from '../support/documented-limits'
import { callWithEnv, storeExport } from '../support/helpers'

const ALLOWED = /^[A-Za-z0-9_-]+$/
const ALLOWED_CHARACTER = /[A-Za-z0-9_-]/

/**
 * Any string a URL can carry, biased towards the characters the rules keep and the ones they drop.
 * A lone surrogate has no UTF-8 spelling: it arrives as U+FFFD, as a URL parser would make it.
 */
const rawTagArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }).map((s) => s.replace(/\p{Cs}/gu, '\uFFFD')),
  fc.string({ unit: 'binary-ascii', maxLength: 120 }),
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

/** An ID the tag rules are read through, and its export: the placeholder as a whole string. */
const ID = '241235'
const DOC = '{"content":{"t":"[MODELSERVERTAG]"}}'
/** Room for the thousands of reads a property makes, which the rate limit would refuse. */
const UNLIMITED = { RATE_LIMIT_SHORT: '100000/60', RATE_LIMIT_LONG: '100000/3600' }

/**
 * The tag the Worker substitutes for the `tag` parameter `raw` (none when undefined), sent as a
 * caller's URL carries it: percent-encoded UTF-8.
 */
async function servedTag(raw: string | undefined): Promise<string> {
  const query = raw === undefined ? '' : `&tag=${encodeURIComponent(raw)}`
  const res = await callWithEnv(UNLIMITED, `/server-api?id=${ID}${query}`)
  expect(res.status).toBe(200)
  return (JSON.parse(await res.text()) as { content: { t: string } }).content.t
}

describe('the tag rules, through the Worker', () => {
  beforeEach(() => storeExport(ID, DOC))
  afterEach(() => reset())

  it('keep the allowed characters in order and case, cut to 100, or give the default', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(rawTagArb, { nil: undefined }), async (raw) => {
        const tag = await servedTag(raw)
        expect(tag).toMatch(ALLOWED)
        expect(tag.length).toBeGreaterThan(0)
        expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH)
        const kept = [...(raw ?? '')].filter((ch) => ALLOWED_CHARACTER.test(ch)).join('')
        expect(tag).toBe(kept === '' ? DEFAULT_TAG : kept.slice(0, MAX_TAG_LENGTH))
      }),
      { numRuns: 1000 },
    )
  })

  it('are idempotent', async () => {
    await fc.assert(
      fc.asyncProperty(rawTagArb, async (raw) => {
        const tag = await servedTag(raw)
        expect(await servedTag(tag)).toBe(tag)
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
