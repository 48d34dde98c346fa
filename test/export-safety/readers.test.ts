import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import { FIXTURES } from '../support/fixtures'
import { ALLOWED_VECTORS, REFUSED_VECTORS } from '../support/export-safety-vectors'
import { blockDisplayCreator, displayEntityUtils } from '../support/oracle-readers'
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

  it('holds no root member but content, so BlockDisplayCreator finds nothing at the root to run', () => {
    for (const [name, text] of ACCEPTED) {
      expect(Object.keys(JSON.parse(text) as object), name).toEqual(['content'])
      expect(blockDisplayCreator(Object.keys(JSON.parse(text) as object)), name).toEqual([])
    }
    expect(blockDisplayCreator(['content', 'commands', 'Passengers'])).toEqual([
      'commands',
      'Passengers',
    ])
  })

  it('has DisplayEntityUtils dispatch every accepted command as it stands', () => {
    let commands = 0
    for (const [name, text] of ACCEPTED) {
      const content = (JSON.parse(text) as { content: Record<string, unknown> }).content
      const datapack = (content.datapack ?? {}) as Record<
        string,
        Record<string, Record<string, unknown>>
      >
      const frames = [datapack.anim_keyframes, datapack.sound_keyframes]
        .flatMap((keyframes) => Object.values(keyframes ?? {}))
        .flatMap((animation) => Object.values(animation))
      for (const command of [content.hitbox, content.commands, ...frames].flat()) {
        if (typeof command !== 'string') continue
        commands++
        expect(displayEntityUtils(command, '1 2 3'), name).toBe(command)
      }
    }
    expect(commands).toBeGreaterThan(1000)
    const replaced =
      'data merge entity @e[tag=a] {CustomName:\'"summon block_display ~-0.5 ~-0.5 ~-0.5"\'}'
    expect(displayEntityUtils(replaced, '1 2 3')).not.toBe(replaced)
  })

  it('refuses each attack the in-check readers catch, naming the reader', () => {
    for (const [file, reader] of [
      ['refused-reader-top-level-without-namespace.json', 'SuperBlocksDisplays'],
      ['refused-reader-display-entity-utils.json', 'DisplayEntityUtils'],
    ]) {
      const vector = REFUSED_VECTORS.find((v) => v.file === file)!
      const verdict = checkExportSafety(vector.text)
      expect(verdict, file).toMatchObject({ safe: false, reason: 'reader', found: reader })
      expect(verdict.safe || verdict.message, file).toContain(`under ${reader}'s own reader`)
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
