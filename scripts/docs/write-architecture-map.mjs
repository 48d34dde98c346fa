/** `npm run docs:map`: rewrites the map of docs/architecture.md from the imports of src/. */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { cruise, drawMap, withMap } from './architecture-map.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const page = new URL('../../docs/architecture.md', import.meta.url)
writeFileSync(page, withMap(readFileSync(page, 'utf8'), drawMap(cruise(root))))
console.log('docs/architecture.md: map written from the imports of src/')
