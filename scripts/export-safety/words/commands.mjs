/** Vectors of the commands: each frame command, each hitbox command, each sound source. */
import { FRAME_PATH, dataMerge, exportOf, playsound, swapCase, vector } from './exports.mjs'

/** Each command a frame may run, then each command the hitbox may. */
export function commandVectors(vocabulary) {
  const frame = vocabulary.commands.frame.map((command) => {
    const allowed =
      command === 'playsound'
        ? playsound('a.b block @a ~ ~ ~')
        : dataMerge('block_display', '{Glowing:1b}')
    const first = allowed.split(' ')[0]
    return vector(
      'frame command',
      command,
      exportOf({ frame: [allowed] }),
      exportOf({ frame: [swapCase(first) + allowed.slice(first.length)] }),
      'command',
      FRAME_PATH,
      swapCase(first),
    )
  })
  const hitbox = vocabulary.commands.hitbox.map((command) =>
    vector(
      'hitbox command',
      command,
      exportOf({}),
      exportOf({}).replace(
        '"summon minecraft:interaction',
        `"${swapCase(command)} minecraft:interaction`,
      ),
      'command',
      'content.hitbox[0]',
      swapCase(command),
    ),
  )
  return [...frame, ...hitbox]
}

/** Each sound source of `playsound`. */
export function soundSourceVectors(vocabulary) {
  return vocabulary.soundSources.map((source) =>
    vector(
      'sound source',
      source,
      exportOf({ frame: [playsound(`a.b ${source} @a ~ ~ ~`)] }),
      exportOf({ frame: [playsound(`a.b ${swapCase(source)} @a ~ ~ ~`)] }),
      'syntax',
      FRAME_PATH,
      swapCase(source),
    ),
  )
}
