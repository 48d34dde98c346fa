#!/usr/bin/env node
// `npm run publish -- <file.json> [--url URL | --state DIR] [--token T] [--quick-command-prefix P]
// [--json]`: publishes an export file through the editor API and prints its ID, expiry, quick
// command and a ready curl line. The address is where `npm start` runs (it writes it to
// .wrangler/local-address) unless --url says otherwise, or --state names the state folder of an
// `npm start` run beside it (`--persist-to DIR`), whose address is in the folder it holds. The token comes from --token, else PUBLISH_TOKEN, else .dev.vars (which
// `npm start` creates), so local publishing needs no set-up. No dependencies, but it reads the
// route names from src/contract/*.ts: Node 22.18 or newer strips their types, as the project's
// own Node does (`npm run publish` runs on it); an older system Node cannot load them.
import { readFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { folderHolder } from './instance-lock.mjs'
import {
  localServiceUrl,
  publishDocument,
  retrievalUrl,
  tokenFromDevVars,
} from './editor-publish.mjs'

const USAGE = `Usage: npm run publish -- <file.json> [options]

Publishes an export document ({"content": {...}}) and prints its six-digit ID.

Options:
  --url URL                    service address (default: where \`npm start\` runs, as it wrote
                               in .wrangler/local-address; else http://127.0.0.1:8787)
  --state DIR                  the \`npm start\` running on state folder DIR (its --persist-to)
  --token T                    editor API token (default: $PUBLISH_TOKEN, then .dev.vars)
  --quick-command-prefix P     replaces "model spawn" in the quick command
  --json                       print the result as JSON
  -h, --help                   show this help`
/** Exit codes: 0 published, 1 the service refused or could not be reached, 2 bad usage. */
const EXIT_FAILED = 1
const EXIT_USAGE = 2

main().catch((error) => fail(EXIT_FAILED, error instanceof Error ? error.message : String(error)))

async function main() {
  const args = parseCommandLine()
  const file = args.positionals[0]
  const base = (args.values.url ?? serviceOfState(args.values.state) ?? localServiceUrl()).replace(
    /\/+$/,
    '',
  )
  const token = args.values.token ?? process.env.PUBLISH_TOKEN ?? tokenFromDevVars()
  if (!token) {
    fail(
      EXIT_USAGE,
      'No token: pass --token, set PUBLISH_TOKEN, or run `npm start` once to create .dev.vars.',
    )
  }

  let document
  try {
    document = readFileSync(file)
  } catch (error) {
    fail(EXIT_USAGE, `Cannot read ${file}: ${error.message}`)
  }

  let result
  try {
    result = await publishDocument({
      base,
      token,
      document,
      quickCommandPrefix: args.values['quick-command-prefix'],
    })
  } catch (error) {
    fail(EXIT_FAILED, error.message)
  }

  const url = retrievalUrl(base, result.id, 'model')
  const curl = `curl '${url}'`
  if (args.values.json) {
    console.log(JSON.stringify({ ...result, url, curl }, null, 2))
    return
  }
  const expiresAt = new Date(result.expiresAt)
  console.log(`Published ${basename(file)} as ${result.id}`)
  console.log(
    `Expires:       ${expiresAt.toLocaleString()} (in ${duration(result.expiresInSeconds)})`,
  )
  console.log(`Quick command: ${result.quickCommand}`)
  console.log(`Fetch it:      ${curl}`)
}

function parseCommandLine() {
  let parsed
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        state: { type: 'string' },
        token: { type: 'string' },
        'quick-command-prefix': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    fail(EXIT_USAGE, `${error.message}\n\n${USAGE}`)
  }
  if (parsed.values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  if (parsed.positionals.length !== 1) fail(EXIT_USAGE, USAGE)
  return parsed
}

/** The address of the `npm start` holding state folder `state`, if one is named. */
function serviceOfState(state) {
  if (state === undefined) return undefined
  const holder = folderHolder(resolve(state))
  if (holder === null) fail(EXIT_FAILED, `No npm start runs on ${state}.`)
  return holder.url
}

function duration(seconds) {
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`
  return `${seconds} seconds`
}

function fail(code, message) {
  console.error(message)
  process.exit(code)
}
