/**
 * Vectors of the patterns: a value each of `playsound`'s patterns reads and one it does not, then
 * the same for the selector arguments that have a pattern.
 */
import { FRAME_PATH, P, exportOf, glowing, playsound, vector } from './exports.mjs'

/** Each pattern's name: `playsound`'s arguments allowed and refused, the reason, what is found. */
const PLAYSOUND_SAMPLES = {
  number: ['a.b block @a ~ ~ ~ 1.5', 'a.b block @a ~ ~ ~ 1,5', 'syntax', '1,5'],
  coordinate: ['a.b block @a ^1 -2.5 ~.5', 'a.b block @a ~~ ~ ~', 'syntax', '~~'],
  soundId: [
    'minecraft:block.note_block.harp block @a ~ ~ ~',
    'Block.harp block @a ~ ~ ~',
    'syntax',
    'Block.harp',
  ],
  playsoundTargets: ['a.b block @a[distance=..5] ~ ~ ~', 'a.b block @e ~ ~ ~', 'selector', '@e'],
}

/** A selector argument with a pattern, a value it reads and one it does not. */
const SELECTOR_SAMPLES = [
  ['distance', '0.5..2', '1..2..3'],
  ['limit', '3', '-1'],
]

/** The patterns of `playsound`, then those of the selector arguments. */
export function patternVectors() {
  const sounds = Object.entries(PLAYSOUND_SAMPLES).map(
    ([name, [allowed, refused, reason, found]]) =>
      vector(
        'pattern',
        name,
        exportOf({ frame: [playsound(allowed)] }),
        exportOf({ frame: [playsound(refused)] }),
        reason,
        FRAME_PATH,
        found,
      ),
  )
  const selectors = SELECTOR_SAMPLES.map(([name, good, bad]) => {
    const selector = (value) => `@e[type=block_display,tag=${P}_0,${name}=${value}]`
    return vector(
      'pattern',
      name,
      glowing(selector(good)),
      glowing(selector(bad)),
      'selector',
      FRAME_PATH,
      `${name}=${bad}`,
    )
  })
  return [...sounds, ...selectors]
}
