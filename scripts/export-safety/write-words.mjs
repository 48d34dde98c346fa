/** Rewrites test/vectors/export-safety/words.json from src/export-safety/types/vocabulary.json. */
import { readFileSync, writeFileSync } from 'node:fs'
import { wordVectors } from './words.mjs'

const vocabulary = JSON.parse(
  readFileSync(new URL('../../src/export-safety/types/vocabulary.json', import.meta.url), 'utf8'),
)
const words = wordVectors(vocabulary)
writeFileSync(
  new URL('../../test/vectors/export-safety/words.json', import.meta.url),
  `${JSON.stringify(words, null, 1)}\n`,
)
console.log(`${words.length} words`)
