import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CommandCheck } from '../../src/export-safety/testing'
import vocabulary from '../../src/export-safety/types/vocabulary.json'
import { PLACEHOLDER } from '../support/fixtures'
import { fastPath } from '../support/fast-path'
import { frameRefusal } from '../support/frame-refusal'

/**
 * The fast path (`isPlainDataMerge`: an editor's `data merge` accepted where it sits in the
 * document, spelled as JSON spells it) never accepts what the full grammar refuses. Commands are
 * drawn close to its form, with words, quoted strings holding brackets, quotes, colons, reader
 * markers and JSON text, so that both verdicts occur.
 */

/** The part types and the keys each may set, as the vocabulary file gives them. */
const PART_KEYS: Record<string, { keys: string[] }> = vocabulary.entities
const TYPES = Object.keys(PART_KEYS)
const OWN_TAGS = new Set([`${PLACEHOLDER}_0`, `${PLACEHOLDER}_1`, 'x_0', '!x', ''])

const charArb = fc.constantFrom(
  ...'aZ09_-.+ :,{}[]"\'\\'.split(''),
  'Passengers:',
  'passengers:',
  '{id:',
  '{"selector":"@a"}',
  '\u00e9',
)
const quotedArb = fc
  .tuple(fc.constantFrom('"', "'"), fc.array(charArb, { maxLength: 8 }))
  .map(([quote, chars]) => `${quote}${chars.join('')}${quote}`)
const wordArb = fc.stringMatching(/^[0-9A-Za-z_\-.+]{1,6}$/)
const keyArb = fc.oneof(
  fc.constantFrom(...new Set(TYPES.flatMap((type) => PART_KEYS[type]!.keys))),
  fc.constantFrom('Passengers', 'id', 'UUID', 'selector', 'nbt', 'score', 'nbt ', 'scores'),
)

const valueArb: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    wordArb,
    quotedArb,
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(keyArb, fc.constantFrom(':', ' : '), tie('value')), { maxLength: 3 })
      .map((members) => `{${members.map(([k, c, v]) => `${k}${c}${v}`).join(',')}}`),
  ),
})).value

const commandArb = fc
  .tuple(
    fc.constantFrom(...TYPES),
    fc.constantFrom(...OWN_TAGS),
    fc.array(fc.tuple(keyArb, valueArb), { maxLength: 4 }),
    fc.constantFrom('', ',limit=1', ',distance=..1,sort=nearest'),
  )
  .map(
    ([type, tag, members, extra]) =>
      `data merge entity @e[type=${type},tag=${tag}${extra}] {${members.map(([k, v]) => `${k}:${v}`).join(',')}}`,
  )

/** Texts and items written as SNBT, holding (or not) a world-reading component's name. */
const textCommandArb = fc
  .tuple(
    fc.constantFrom(...TYPES),
    fc.constantFrom('CustomName', 'text', 'item'),
    fc.constantFrom('nbt', 'score', 'selector', 'extra', 'lore', 'text'),
    wordArb,
  )
  .map(
    ([type, key, name, word]) =>
      `data merge entity @e[type=${type},tag=${PLACEHOLDER}_0] {${key}:{components:{${name}:${word}},${name}:[{${name}:1b}]}}`,
  )

describe('the fast path of data merge', () => {
  it('accepts only what the full grammar accepts', () => {
    let fast = 0
    let refused = 0
    fc.assert(
      fc.property(fc.oneof(commandArb, textCommandArb), (command) => {
        const check = new CommandCheck(new Set(OWN_TAGS), PLACEHOLDER)
        const verdict = frameRefusal(new CommandCheck(new Set(OWN_TAGS), PLACEHOLDER), command)
        if (verdict !== null) refused++
        if (fastPath(check, command)) {
          fast++
          expect(verdict).toBeNull()
        }
      }),
      { numRuns: 3000, seed: 34 },
    )
    // Both sides were reached: the property did not hold vacuously.
    expect(fast).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(100)
  })
})
