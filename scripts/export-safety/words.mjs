/**
 * One allowed and one refused export per word of src/export-safety/types/vocabulary.json (every
 * entity, key, command, selector argument, sort, sound source, pattern, text key, reader
 * marker, checked name, invisible range and limit), written to
 * test/vectors/export-safety/words.json for the TypeScript and the Java checks alike.
 * `node scripts/export-safety/write-words.mjs` rewrites the file; a test fails when it is stale.
 * Each file of words/ builds the vectors of one part of the vocabulary; the order here is the
 * file's order.
 */
import { commandVectors, soundSourceVectors } from './words/commands.mjs'
import { entityVectors, passengerKeyVectors } from './words/entities.mjs'
import { identityVectors } from './words/identity.mjs'
import { limitVectors } from './words/limits.mjs'
import { patternVectors } from './words/patterns.mjs'
import { selectorVectors } from './words/selectors.mjs'
import { escapeVectors, hiddenNameVectors, readerMarkerVectors } from './words/spellings.mjs'
import { textVectors } from './words/text.mjs'
import { componentVectors, keyTypeVectors } from './words/types.mjs'

/** Every word's vector: `{ kind, word, allowed, refused, reason, path, found }`. */
export function wordVectors(vocabulary) {
  return [
    ...entityVectors(vocabulary),
    ...passengerKeyVectors(vocabulary),
    ...commandVectors(vocabulary),
    ...selectorVectors(vocabulary),
    ...soundSourceVectors(vocabulary),
    ...patternVectors(),
    ...textVectors(vocabulary),
    ...keyTypeVectors(vocabulary),
    ...componentVectors(vocabulary),
    ...escapeVectors(),
    ...readerMarkerVectors(vocabulary),
    ...hiddenNameVectors(vocabulary),
    ...limitVectors(vocabulary),
    ...identityVectors(vocabulary),
  ]
}
