#!/usr/bin/env node
// `npm start [-- --no-examples] [-- <wrangler dev flags>]`: the service on http://127.0.0.1:8787
// with local KV and Durable Objects, offline and quiet, for local development only (deploying is
// `npm run deploy`). Creates .dev.vars from .dev.vars.example when missing.
//
// Before wrangler starts, every setting is read by the product's own parsers
// (scripts/settings-check.mjs): one the Worker would refuse, at startup or with a `500`, stops it
// here with the Worker's message. Quiet means: wrangler runs at `--log-level warn` unless told
// otherwise, so a request prints nothing (at `info` wrangler's own line; at `log` also the
// service's JSON log line, and wrangler's build output and table of bindings), and this script
// says what a person needs instead: the settings given with --var (the values of secrets never),
// when the service answers, and then the three fixtures it published as examples (their IDs, a
// curl line, the try-it page), unless `--no-examples`. Without `--persist-to`, it writes its
// address to .wrangler/local-address while it runs, where `npm run publish` finds it.
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { flagValues } from './cli-flags.mjs'
import {
  LOCAL_ADDRESS_FILE,
  publishDocument,
  retrievalUrl,
  tokenFromDevVars,
} from './editor-publish.mjs'
import { resolvedVars, settingProblems, varsOfFlags } from './settings-check.mjs'

/** Settings whose values are secrets: named when given, never printed. */
const SECRETS = new Set(['PUBLISH_TOKEN', 'PUBLISH_TOKEN_NEXT', 'LOG_CLIENT_KEY'])
/** Published once the service answers: the repository's fixtures, the first one in the curl line. */
const EXAMPLES = [
  'reading-41-displays.json',
  'animated-80-displays.json',
  'stone-gate-136-displays.json',
]
const EXAMPLE_TAG = 'my_model_1'
const NO_EXAMPLES = '--no-examples'

const root = fileURLToPath(new URL('..', import.meta.url))
const devVars = new URL('../.dev.vars', import.meta.url)
if (!existsSync(devVars)) {
  copyFileSync(new URL('../.dev.vars.example', import.meta.url), devVars)
  console.log('Created .dev.vars from .dev.vars.example (local PUBLISH_TOKEN=dev-publish-token).')
}

const examples = !process.argv.includes(NO_EXAMPLES)
const flags = process.argv.slice(2).filter((flag) => flag !== NO_EXAMPLES)
const defaults = []
if (flagValues(flags, '--ip').length === 0) defaults.push('--ip', '127.0.0.1')
if (flagValues(flags, '--port').length === 0) defaults.push('--port', '8787')
const quiet = flagValues(flags, '--log-level').length === 0
if (quiet) defaults.push('--log-level', 'warn')
const ownState = flagValues(flags, '--persist-to').length > 0

const givenFlags = flagValues(flags, '--var')
const given = varsOfFlags(givenFlags)
// Every setting the Worker would refuse is refused here, before wrangler starts: its message
// alone, not buried under workerd's report of a failed start or a 500 at the first request.
const environment = flagValues(flags, '--env')[0] ?? ''
const problems = await settingProblems(await resolvedVars({ environment, dev: true, given }))
if (problems.length > 0) {
  for (const problem of problems) console.error(problem)
  console.error('Nothing was started: change the setting and run npm start again.')
  process.exit(1)
}
if (givenFlags.length > 0) {
  const shown = givenFlags.map((setting) => {
    const colon = setting.indexOf(':')
    const name = colon < 0 ? setting : setting.slice(0, colon)
    return isSecret(name) ? `${name} (secret, not shown)` : `${name}=${setting.slice(colon + 1)}`
  })
  console.log(`Settings from --var: ${shown.join(', ')}`)
}
const port = flagValues(flags, '--port')[0] ?? '8787'
const ip = flagValues(flags, '--ip')[0] ?? '127.0.0.1'
const url = `http://${ip === '0.0.0.0' || ip === '*' ? '127.0.0.1' : ip}:${port}`
if (quiet) console.log(`Starting wrangler dev on ${url} ...`)

const child = spawn('wrangler', ['dev', ...defaults, ...flags], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    // Offline: no telemetry, no fetch of the Request.cf object, no banner.
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_HIDE_BANNER: 'true',
  },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  forgetAddress()
  process.exit(signal ? 1 : (code ?? 0))
})
void whenReady()

function isSecret(name) {
  return SECRETS.has(name) || /TOKEN|KEY|SECRET|PASSWORD/i.test(name)
}

/** Once the service answers: says so, notes the address, publishes the examples. */
async function whenReady() {
  if (!(await answers())) return
  if (!ownState) {
    mkdirSync(dirname(LOCAL_ADDRESS_FILE), { recursive: true })
    writeFileSync(LOCAL_ADDRESS_FILE, `${url}\n`)
  }
  if (quiet) {
    console.log(
      `Ready on ${url}. Requests are not listed (npm start -- --log-level log lists each with the service's JSON log line); warnings and errors are. Ctrl+C stops.`,
    )
  }
  if (examples) await publishExamples()
}

/** Waits until the service answers HTTP; false if wrangler exits first. */
async function answers() {
  while (child.exitCode === null) {
    try {
      await fetch(`${url}/server-api`, { method: 'OPTIONS' })
      return true
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  return false
}

/** Publishes the fixtures and prints what to do with them; a failure is said, not fatal. */
async function publishExamples() {
  const token = given.PUBLISH_TOKEN ?? tokenFromDevVars()
  try {
    const ids = []
    for (const name of EXAMPLES) {
      const document = readFileSync(new URL(`../fixtures/${name}`, import.meta.url))
      ids.push((await publishDocument({ base: url, token, document })).id)
    }
    console.log(
      `Examples from fixtures/, published for 10 minutes (${NO_EXAMPLES} leaves them out):`,
    )
    for (const [index, name] of EXAMPLES.entries()) console.log(`  ${ids[index]}  ${name}`)
    console.log(`Fetch one:  curl '${retrievalUrl(url, ids[0], EXAMPLE_TAG)}'`)
    console.log(`Try it:     ${url}/?id=${ids[0]}&tag=${EXAMPLE_TAG}`)
  } catch (error) {
    console.error(`The examples were not published: ${error.message}`)
  }
}

/** Removes the address file, if it is still this service's. */
function forgetAddress() {
  if (ownState || !existsSync(LOCAL_ADDRESS_FILE)) return
  if (readFileSync(LOCAL_ADDRESS_FILE, 'utf8').trim() === url) rmSync(LOCAL_ADDRESS_FILE)
}
