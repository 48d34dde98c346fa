/** Vectors of the value types: each key's type, each item component allowed or refused. */
import { FRAME_PATH, PARTS, merging, vector } from './exports.mjs'
import { sampleOf, wrongOf } from './values.mjs'

/** An item of stone with one component. */
const item = (name, value) => `{item:{id:"minecraft:stone",components:{"${name}":${value}}}}`

/** Each key (but `Tags`) with a value of its type and one of another shape, on a part that has it. */
export function keyTypeVectors(vocabulary) {
  const vectors = []
  for (const [key, ref] of Object.entries(vocabulary.keyTypes)) {
    const type =
      PARTS.map(([t]) => t).find((t) => vocabulary.entities[t].keys.includes(key)) ?? 'interaction'
    if (key === 'Tags') continue
    vectors.push(
      vector(
        'key type',
        key,
        merging(type, `{${key}:${sampleOf(vocabulary.types, ref)}}`),
        merging(type, `{${key}:${wrongOf(vocabulary.types, ref)}}`),
        'type',
        FRAME_PATH,
        key,
      ),
    )
  }
  return vectors
}

/** Each item component an item may carry (misspelt), then each one refused by name. */
export function componentVectors(vocabulary) {
  const components = Object.entries(vocabulary.types.components.members).map(([name, ref]) =>
    vector(
      'item component',
      name,
      merging('item_display', item(name, sampleOf(vocabulary.types, ref))),
      merging('item_display', item(`${name}_`, sampleOf(vocabulary.types, ref))),
      'component',
      FRAME_PATH,
      `${name}_`,
    ),
  )
  const refused = Object.keys(vocabulary.refusedComponents).map((name) =>
    vector(
      'refused component',
      name,
      merging('item_display', item('minecraft:item_model', '"minecraft:stone"')),
      merging('item_display', item(name, '{}')),
      'component',
      FRAME_PATH,
      name,
    ),
  )
  return [...components, ...refused]
}
