/**
 * Vectors of how text is spelt: escapes, the placeholder outside a tag, the plugins' reader
 * markers, names hidden behind an invisible character, each invisible range.
 */
import {
  FRAME_PATH,
  P,
  PARTS,
  PASSENGER_PATH,
  exportOf,
  merging,
  part,
  vector,
} from './exports.mjs'

/** Each escape a name may not hold, then the placeholder in a name. */
export function escapeVectors() {
  const name = (text) => `{CustomName:'"${text}"'}`
  const escapes = ['x', 'u', 'U', 'N', 'b', 's', 't', 'n', 'f', 'r', '"'].map((letter) =>
    vector(
      'escape',
      letter,
      merging('block_display', name("it\\'s")),
      merging('block_display', name(`\\${letter}73`)),
      'escape',
      FRAME_PATH,
      `\\${letter}`,
    ),
  )
  const placeholder = vector(
    'placeholder',
    P,
    exportOf({}),
    merging('block_display', name(`${P}_0`)),
    'placeholder',
    FRAME_PATH,
    'CustomName',
  )
  return [...escapes, placeholder]
}

/** Each plugin reader's marker in a part's name, beside a name that only nearly holds it. */
export function readerMarkerVectors(vocabulary) {
  return vocabulary.readerMarkers.map((marker) => {
    // A JSON string cannot hold a bare `"`: that marker stands in a JSON text object.
    const inObject = marker.includes('"')
    const harmless = inObject
      ? '{"italic":true}'
      : `"${marker.slice(0, -1)}${marker.startsWith('{') ? '}' : ''}"`
    const holding = inObject ? `${marker}1}` : `"${marker}${marker.startsWith('{') ? '}' : ''}"`
    const name = (text) => part(PARTS[0], `,CustomName:'${text}'`)
    return vector(
      'reader marker',
      marker,
      exportOf({ passengers: name(harmless) }),
      exportOf({ passengers: name(holding) }),
      'reader',
      PASSENGER_PATH,
      marker,
    )
  })
}

/** Each checked member name, behind a zero-width space where it stands, then each invisible range. */
export function hiddenNameVectors(vocabulary) {
  const names = Object.entries(vocabulary.names).flatMap(([place, inPlace]) =>
    inPlace.map((name) => {
      const hidden = `\u200b${name}`
      const path =
        place === 'root'
          ? '["\\u200bcontent"]'
          : `${place === 'content' ? 'content' : 'content.datapack'}["\\u200b${name}"]`
      const refused =
        place === 'root'
          ? exportOf({ rootPrefix: `${JSON.stringify(hidden)}:{},` })
          : place === 'content'
            ? exportOf({ contentExtra: `,${JSON.stringify(hidden)}:[]` })
            : exportOf({}).replace('"datapack":{', `"datapack":{${JSON.stringify(hidden)}:{},`)
      return vector(`${place} name`, name, exportOf({}), refused, 'member', path, `\\u200b${name}`)
    }),
  )
  const invisible = vocabulary.invisible.map(([from]) => {
    const char = String.fromCodePoint(parseInt(from, 16))
    const spelled =
      [...char].length &&
      Array.from(
        { length: char.length },
        (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`,
      ).join('')
    return vector(
      'invisible',
      from,
      exportOf({ contentExtra: `,"meta":{${JSON.stringify(`note${char}`)}:1}` }),
      exportOf({ contentExtra: `,${JSON.stringify(`hit${char}box`)}:1` }),
      'member',
      `content["hit${spelled}box"]`,
      `hit${spelled}box`,
    )
  })
  return [...names, ...invisible]
}
