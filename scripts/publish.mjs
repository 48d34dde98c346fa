#!/usr/bin/env node
// `npm run publish -- <file.json> [--url URL] [--token T] [--quick-command-prefix P] [--json]`:
// publishes an export file through the editor API and prints its ID, expiry, quick command and a
// ready curl line. The token comes from --token, else PUBLISH_TOKEN, else .dev.vars (which
// `npm start` creates), so local publishing needs no set-up. No dependencies, but it reads the
// route names from src/contract/*.ts: Node 22.18 or newer strips their types, as the project's
// own Node does (`npm run publish` runs on it); an older system Node cannot load them.
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { EDITOR_EXPORTS_PATH, SERVER_API_PATH } from '../src/contract/routes.ts'
import { RETRY_AFTER_HEADER } from '../src/contract/wire.ts'

const DEFAULT_URL = 'http://127.0.0.1:8787'
const USAGE = `Usage: npm run publish -- <file.json> [options]

Publishes an export document ({"content": {...}}) and prints its six-digit ID.

Options:
  --url URL                    service address (default ${DEFAULT_URL})
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
  const base = args.values.url.replace(/\/+$/, '')
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

  const endpoint = new URL(`${base}${EDITOR_EXPORTS_PATH}`)
  const prefix = args.values['quick-command-prefix']
  if (prefix !== undefined) endpoint.searchParams.set('quickCommandPrefix', prefix)

  let response
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: document,
    })
  } catch (error) {
    const reason = error.cause?.code ?? error.message
    fail(EXIT_FAILED, `Cannot reach ${base} (${reason}). Is the service running (\`npm start\`)?`)
  }

  const text = await response.text()
  if (response.status !== 201) fail(EXIT_FAILED, describeRefusal(response, text))

  const result = JSON.parse(text)
  const url = `${base}${SERVER_API_PATH}?id=${result.id}&tag=model`
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
        url: { type: 'string', default: DEFAULT_URL },
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

/** PUBLISH_TOKEN from the project's .dev.vars (KEY=value lines, optional quotes), if any. */
function tokenFromDevVars() {
  let text
  try {
    text = readFileSync(new URL('../.dev.vars', import.meta.url), 'utf8')
  } catch {
    return undefined
  }
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*PUBLISH_TOKEN\s*=\s*(.*?)\s*$/.exec(line)
    if (match) return match[1].replace(/^(["'])(.*)\1$/, '$2')
  }
  return undefined
}

/** The service's code and message: `{"error": message, "code"}`, or the 429's `{"error": {...}}`. */
function describeRefusal(response, text) {
  let body
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const error = body?.error
  const [code, message] =
    typeof error === 'string' ? [body.code, error] : [error?.code, error?.message]
  if (typeof message !== 'string') {
    return `Publishing failed: HTTP ${response.status} ${text.slice(0, 200)}`
  }
  const retry = response.headers.get(RETRY_AFTER_HEADER)
  const hint = retry ? ` Retry after ${retry} s.` : ''
  return `Publishing failed: HTTP ${response.status} ${code}: ${message}${hint}`
}

function duration(seconds) {
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`
  return `${seconds} seconds`
}

function fail(code, message) {
  console.error(message)
  process.exit(code)
}
