/** Vectors of the parts: each entity, each key of an entity, each key of a passenger. */
import {
  FRAME_PATH,
  PARTS,
  PASSENGER_PATH,
  dataMerge,
  exportOf,
  merging,
  part,
  swapCase,
  tagOf,
  vector,
} from './exports.mjs'
import { sampleOf } from './values.mjs'

/** Each entity where it stands (a passenger, or the hitbox), then each of its keys in a frame. */
export function entityVectors(vocabulary) {
  const vectors = []
  for (const [type, { keys }] of Object.entries(vocabulary.entities)) {
    vectors.push(entityVector(type))
    for (const key of keys) {
      const other = swapCase(key)
      if (keys.includes(other)) throw new Error(`${other} is a key of ${type}`)
      const value = valueOf(vocabulary, key, type)
      vectors.push(
        vector(
          `key of ${type}`,
          key,
          merging(type, `{${key}:${value}}`),
          merging(type, `{${other}:${value}}`),
          'key',
          FRAME_PATH,
          other,
        ),
      )
    }
  }
  return vectors
}

/** The hitbox's entity in its summon; every other entity as a passenger. */
function entityVector(type) {
  const wrong = `minecraft:${swapCase(type)}`
  if (type === 'interaction') {
    return vector(
      'entity',
      type,
      exportOf({ frame: [`playsound a.b block @a ~ ~ ~`] }),
      exportOf({}).replace(`summon minecraft:interaction`, `summon ${wrong}`),
      'entity',
      'content.hitbox[0]',
      wrong,
    )
  }
  return vector(
    'entity',
    type,
    exportOf({
      passengers: part([type, tagOf(type)]),
      frame: [dataMerge(type, '{Glowing:1b}')],
    }),
    exportOf({ passengers: `{id:"${wrong}"}` }),
    'entity',
    PASSENGER_PATH,
    wrong,
  )
}

/** A value each key accepts: of its type. */
function valueOf(vocabulary, key, type) {
  if (key === 'Tags') return `["${tagOf(type)}"]`
  return sampleOf(vocabulary.types, vocabulary.keyTypes[key])
}

/** Each key of a passenger, on a part that carries another. */
export function passengerKeyVectors(vocabulary) {
  const nested = part(PARTS[0], `,Passengers:[${part(PARTS[1])}]`)
  return vocabulary.passengerKeys.map((key) =>
    key === 'id'
      ? vector(
          'passenger key',
          key,
          exportOf({ passengers: nested }),
          exportOf({ passengers: `{ID:"minecraft:block_display"}` }),
          'entity',
          PASSENGER_PATH,
          'no id',
        )
      : vector(
          'passenger key',
          key,
          exportOf({ passengers: nested }),
          exportOf({ passengers: part(PARTS[0], `,passengers:[${part(PARTS[1])}]`) }),
          'key',
          PASSENGER_PATH,
          'passengers',
        ),
  )
}
