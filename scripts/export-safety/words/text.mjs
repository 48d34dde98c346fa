/** Vectors of JSON text: each kind of text that reads the world, each key that holds text. */
import { FRAME_PATH, merging, vector } from './exports.mjs'

/** JSON text of `kind` reading the part that shows it. */
const reading = (kind) => `{"${kind}":"@s"}`

/** Each world-reading kind in a text display's text, then each text key holding a selector. */
export function textVectors(vocabulary) {
  const kinds = vocabulary.text.worldReadingKinds.map((kind) =>
    vector(
      'world-reading text',
      kind,
      merging('text_display', `{text:'${reading('text')}'}`),
      merging('text_display', `{text:'${reading(kind)}'}`),
      'text',
      FRAME_PATH,
      kind,
    ),
  )
  const keys = Object.keys(vocabulary.keyTypes)
    .filter((k) => vocabulary.keyTypes[k] === 'text')
    .map((key) =>
      vector(
        'text key',
        key,
        merging('text_display', `{${key}:'${reading('text')}'}`),
        merging('text_display', `{${key}:'${reading('selector')}'}`),
        'text',
        FRAME_PATH,
        'selector',
      ),
    )
  return [...kinds, ...keys]
}
