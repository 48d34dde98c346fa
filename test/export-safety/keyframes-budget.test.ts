/**
 * Keyframes too many to keep their offsets (past the check's record budget, some 13,000 frames)
 * are read again by the scanner a frame at a time: the verdict is the one the kept offsets give,
 * at the same path, whatever comes late in them, in the check's own pass and in the validator's.
 */
import { describe, expect, it } from 'vitest'
import { findUnsafeExport, startExportCheck } from '../../src/export-safety'
import { validateExport } from '../../src/publish/testing'

const encoder = new TextEncoder()

/** `{"content":{"datapack":{"anim_keyframes":{...}}}}` with `animations` as written. */
function keyframes(animations: string): Uint8Array {
  return encoder.encode(`{"content":{"datapack":{"anim_keyframes":{${animations}}}}}`)
}

/** 20,000 empty frames: 100,000 numbers kept, past the budget. */
const MANY_FRAMES = `"pad":{${Array.from({ length: 20_000 }, (_, i) => `"${i}":[]`).join(',')}}`

/** What comes late, after the many frames, each with something to refuse (or nothing). */
const LATE: Record<string, string> = {
  'a command outside the vocabulary': '"late":{"0":[],"1":["tp @s ~ ~ ~","say hi"]}',
  'a frame that is not a list': '"late":{"0":"say hi"}',
  'an animation that is not an object': '"late":5',
  'a frame name too long': `"late":{"${'f'.repeat(300)}":[]}`,
  'an animation name too long': `"${'a'.repeat(300)}":{}`,
  'an element that is not a string': '"late":{"0":[1]}',
  nothing: '"late":{"0":[],"1":[]}',
}

describe('keyframes past the record budget', () => {
  for (const [what, late] of Object.entries(LATE)) {
    it(`give the verdict of kept offsets on ${what}`, () => {
      const kept = findUnsafeExport(keyframes(late))
      const streamed = keyframes(`${MANY_FRAMES},${late}`)
      expect(findUnsafeExport(streamed)).toEqual(kept)
      const check = startExportCheck(streamed)
      validateExport(streamed, check.observer)
      expect(check.verdict()).toEqual(kept)
      if (what === 'nothing') expect(kept).toBeNull()
      else expect(kept?.path).toMatch(/^content\.datapack\.anim_keyframes/)
    })
  }
})
