/** Vectors of what names a part: the placeholder its tags are made of, the namespace of its id. */
import {
  FRAME_PATH,
  P,
  PARTS,
  PASSENGER_PATH,
  dataMerge,
  exportOf,
  part,
  vector,
} from './exports.mjs'

/** A selector's tag that is not the placeholder's, then an id outside the default namespace. */
export function identityVectors(vocabulary) {
  return [
    vector(
      'placeholder',
      vocabulary.placeholder,
      exportOf({}),
      exportOf({
        passengers: `${PARTS.map((p) => part(p)).join(',')},{id:"minecraft:block_display",Tags:["x_0"]}`,
        frame: [dataMerge('block_display', '{Glowing:1b}', '@e[type=block_display,tag=x_0]')],
      }),
      'selector',
      FRAME_PATH,
      'tag=x_0',
    ),
    vector(
      'namespace',
      vocabulary.defaultNamespace,
      exportOf({
        passengers: `${part(PARTS[0], `,Passengers:[{id:"block_display",Tags:["${P}_4"]}]`)},${PARTS.slice(
          1,
        )
          .map((p) => part(p))
          .join(',')}`,
      }),
      exportOf({ passengers: `{id:"minecraft2:block_display"}` }),
      'entity',
      PASSENGER_PATH,
      'minecraft2:block_display',
    ),
  ]
}
