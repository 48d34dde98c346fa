import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import vocabulary from '../../src/export-safety/types/vocabulary.json'
import words from '../vectors/export-safety/words.json'
// @ts-expect-error: a plain ES module of the scripts, without types
import { wordVectors } from '../../scripts/export-safety/words.mjs'

interface WordVector {
  kind: string
  word: string
  allowed: string
  refused: string
  reason: string
  path: string
  found: string
}

const WORDS = words as WordVector[]

describe('one allowed and one refused export per word of the vocabulary', () => {
  it('are the ones vocabulary.json gives (node scripts/export-safety/write-words.mjs)', () => {
    expect(WORDS).toEqual((wordVectors as (v: unknown) => WordVector[])(vocabulary))
  })

  it('cover every word the issue found untested', () => {
    const covered = new Set(WORDS.map((vector) => vector.word))
    for (const word of [
      'Rotation',
      'CustomName',
      'Silent',
      'NoGravity',
      'Invulnerable',
      'glow_color_override',
      'shadow_radius',
      'shadow_strength',
      'teleport_duration',
      'see_through',
      'music',
      'weather',
      'neutral',
      'voice',
      'furthest',
      'arbitrary',
    ]) {
      expect(covered, word).toContain(word)
    }
  })

  it.each(WORDS.map((vector) => [`${vector.kind} ${vector.word}`, vector] as const))(
    '%s: allowed where it belongs, refused misspelt',
    (_, vector) => {
      expect(checkExportSafety(vector.allowed)).toEqual({ safe: true })
      expect(checkExportSafety(vector.refused)).toMatchObject({
        safe: false,
        reason: vector.reason,
        path: vector.path,
        found: vector.found,
      })
    },
  )
})
