#!/usr/bin/env node
// `npm run reset [-- --persist-to DIR]`: forgets everything the local service stored (exports,
// rate-limit records and penalties, ID allocations) in .wrangler/state, or in DIR. Settings
// (.dev.vars) stay. Refuses while an `npm start` runs on that state: its workerd holds the files
// open (`npm start -- --fresh` restarts it empty instead).
import { relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { flagValues } from './cli-flags.mjs'
import { clearState, DEFAULT_STATE_DIR, folderHolder } from './instance-lock.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const stateDir = resolve(
  root,
  flagValues(process.argv.slice(2), '--persist-to')[0] || DEFAULT_STATE_DIR,
)
const shown = relative(process.cwd(), stateDir)

const holder = folderHolder(stateDir)
if (holder !== null) {
  console.error(
    `npm start runs on ${shown}: ${holder.url} (pid ${holder.pid}). Stop it first, or restart ` +
      'it empty with npm start -- --fresh. Nothing was reset.',
  )
  process.exit(1)
}
clearState(stateDir)
console.log(
  `Local state reset (${shown}): no exports, no rate-limit records or penalties. .dev.vars is kept.`,
)
