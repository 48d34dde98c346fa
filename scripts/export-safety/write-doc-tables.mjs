/** Rewrites the vocabulary's tables in docs/export-safety.md from src/export-safety/types/vocabulary.json. */
import { readFileSync, writeFileSync } from 'node:fs'
import { withDocTables } from './doc-tables.mjs'

const vocabulary = JSON.parse(
  readFileSync(new URL('../../src/export-safety/types/vocabulary.json', import.meta.url), 'utf8'),
)
const page = new URL('../../docs/export-safety.md', import.meta.url)
writeFileSync(page, withDocTables(readFileSync(page, 'utf8'), vocabulary))
console.log('docs/export-safety.md: tables written')
