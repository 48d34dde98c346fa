#!/usr/bin/env node
/**
 * `npm run openapi:release`: keeps the OpenAPI document of the version in package.json as
 * released, in openapi/released/<version>.json, the file `npm test` compares every later build
 * with (test/contract/openapi-compat.test.ts). Run it at every production deploy (docs/operations.md):
 * a version not yet released is released; one released already passes when the built document is
 * the released one, and fails otherwise, since what was released does not change afterwards.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { format, resolveConfig } from 'prettier'
import { importBundled } from './lib/import-bundled.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The document as the Worker serves it, built from src/openapi/ as wrangler builds the Worker. */
async function builtDocument() {
  const module = await importBundled(join(root, 'src/openapi/document.ts'))
  return module.OPENAPI_DOCUMENT
}

const document = await builtDocument()
const file = join(root, 'openapi', 'released', `${document.info.version}.json`)
if (existsSync(file)) {
  // Deploying a released version again (a redeploy, a rollback's undo) releases nothing new.
  if (isDeepStrictEqual(JSON.parse(readFileSync(file, 'utf8')), document)) {
    console.log(`${document.info.version} is released already, as built: nothing to release.`)
    process.exit(0)
  }
  console.error(`${file} exists, and the built document differs from it.`)
  console.error(
    'Raise the version first (CONTRIBUTING.md#versions): npm version patch|minor|major --no-git-tag-version',
  )
  process.exit(1)
}
mkdirSync(dirname(file), { recursive: true })
// Formatted as `npm run format` would, so the format check passes on it as written.
const options = { ...(await resolveConfig(file)), filepath: file }
writeFileSync(file, await format(JSON.stringify(document), options))
console.log(`Released the OpenAPI document of ${document.info.version} as ${file}`)
