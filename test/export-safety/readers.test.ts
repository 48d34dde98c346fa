import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import { FIXTURES } from '../support/fixtures'
import { ALLOWED_VECTORS, REFUSED_VECTORS } from '../support/export-safety-vectors'
import { passengerStrings, readsTheSame, superBlocksDisplays } from '../support/plugin-readers'
import words from '../vectors/export-safety/words.json'

/** Every accepted export the tests have: the fixtures, the allowed vectors and words. */
const ACCEPTED: Array<[string, string]> = [
  ...Object.entries(FIXTURES),
  ...ALLOWED_VECTORS.map((vector) => [vector.file, vector.text] as [string, string]),
  ...(words as Array<{ kind: string; word: string; allowed: string }>).map(
    (word) => [`word ${word.kind} ${word.word}`, word.allowed] as [string, string],
  ),
]

describe("the plugins' own readers on every accepted export", () => {
  it('has accepted exports to read, each accepted', () => {
    expect(ACCEPTED.length).toBeGreaterThan(150)
    for (const [name, text] of ACCEPTED) expect(checkExportSafety(text).safe, name).toBe(true)
  })

  it.each(ACCEPTED)('%s reads, under every reader, as entities the check accepts', (_, text) => {
    expect(readsTheSame(text)).toBe(true)
  })

  it('holds no root member but content, so no plugin finds root-level commands', () => {
    for (const [name, text] of ACCEPTED) {
      expect(Object.keys(JSON.parse(text) as object), name).toEqual(['content'])
    }
  })

  it('catches the attacks the readers were open to: the readers see another entity there', () => {
    const attacks = REFUSED_VECTORS.filter((vector) => vector.file.startsWith('refused-reader-'))
    expect(attacks.length).toBeGreaterThanOrEqual(3)
    const split = attacks.find(
      (vector) => vector.file === 'refused-reader-split-in-custom-name.json',
    )!
    // Under the game's grammar one block display; under the split, a falling command block.
    expect(readsTheSame(split.text)).toBe(false)
    expect(superBlocksDisplays(passengerStrings(split.text)[0]!)[1]).toMatchObject({
      type: 'falling_block',
    })
  })
})
