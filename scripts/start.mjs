#!/usr/bin/env node
// `npm start` (or `npm run dev`) `[-- --production-limits] [-- --fresh] [-- --no-examples]
// [-- <wrangler dev flags>]`: the service on http://127.0.0.1:8787 with local KV and Durable
// Objects, offline and quiet, for local development only (deploying is `npm run deploy`).
// Creates .dev.vars from .dev.vars.example when missing.
//
// Local limits: every request without CF-Connecting-IP is one client here (curl, the try-it page,
// the Java example alike), so production's miss limit would lock all of them out for 15 minutes
// after 30 mistyped IDs. Unless `--production-limits` (or RATE_LIMIT_MISSES given in .dev.vars or
// with --var), the miss limit is off; the request windows stay as configured. The first line says
// which limits apply.
//
// One `npm start` per state folder (scripts/instance-lock.mjs): a second one refuses, naming the
// address and pid of the first. `--fresh` empties the state folder first (exports, rate-limit
// records and penalties, ID allocations); `npm run reset` does the same without starting.
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
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { flagValues } from './cli-flags.mjs'
import {
  LOCAL_ADDRESS_FILE,
  publishDocument,
  retrievalUrl,
  tokenFromDevVars,
} from './editor-publish.mjs'
import { clearState, DEFAULT_STATE_DIR, releaseFolder, takeFolder } from './instance-lock.mjs'
import {
  configPathOf,
  devFileVars,
  preflight,
  resolvedVars,
  varsOfFlags,
} from './settings-check.mjs'

/** Settings whose values are secrets: named when given, never printed. */
const SECRETS = new Set(['PUBLISH_TOKEN', 'PUBLISH_TOKEN_NEXT', 'LOG_CLIENT_KEY'])
/** Published once the service answers: the repository's fixtures, the first one in the curl line. */
const EXAMPLES = [
  'reading-41-displays.json',
  'animated-80-displays.json',
  'stone-gate-136-displays.json',
]
const EXAMPLE_TAG = 'my_model_1'
/** This script's own flags; every other one goes to `wrangler dev`. */
const NO_EXAMPLES = '--no-examples'
const PRODUCTION_LIMITS = '--production-limits'
const FRESH = '--fresh'
const OWN_FLAGS = [NO_EXAMPLES, PRODUCTION_LIMITS, FRESH]
/** What local limits change: the one limit a person exploring by hand trips. */
const LOCAL_LIMITS = { RATE_LIMIT_MISSES: 'off' }

const root = fileURLToPath(new URL('..', import.meta.url))
const devVars = new URL('../.dev.vars', import.meta.url)
if (!existsSync(devVars)) {
  copyFileSync(new URL('../.dev.vars.example', import.meta.url), devVars)
  console.log('Created .dev.vars from .dev.vars.example (local PUBLISH_TOKEN=dev-publish-token).')
}

const examples = !process.argv.includes(NO_EXAMPLES)
const productionLimits = process.argv.includes(PRODUCTION_LIMITS)
const fresh = process.argv.includes(FRESH)
const flags = process.argv.slice(2).filter((flag) => !OWN_FLAGS.includes(flag))
const defaults = []
if (flagValues(flags, '--ip').length === 0) defaults.push('--ip', '127.0.0.1')
if (flagValues(flags, '--port').length === 0) defaults.push('--port', '8787')
const quiet = flagValues(flags, '--log-level').length === 0
if (quiet) defaults.push('--log-level', 'warn')
const ownState = flagValues(flags, '--persist-to').length > 0
const configPath = configPathOf(flagValues(flags, '--config')[0] ?? flagValues(flags, '-c')[0])

const givenFlags = flagValues(flags, '--var')
const given = varsOfFlags(givenFlags)
// Every setting the Worker would refuse is refused here, before wrangler starts: its message
// alone, not buried under workerd's report of a failed start or a 500 at the first request.
const environment = flagValues(flags, '--env')[0] ?? ''
const problems = await preflight({ configPath, environment, varFlags: givenFlags, dev: true })
if (problems.length > 0) {
  stop(...problems, 'Nothing was started: change the setting and run npm start again.')
}

const fromFiles = await resolvedVars({ configPath, environment, dev: true })
const inDevVars = await devFileVars({ configPath, environment })
const localLimits = Object.fromEntries(
  Object.entries(LOCAL_LIMITS).filter(
    ([name]) => !productionLimits && !(name in given) && !(name in inDevVars),
  ),
)
const vars = { ...fromFiles, ...localLimits, ...given }
const localFlags = Object.entries(localLimits).flatMap(([name, value]) => [
  '--var',
  `${name}:${value}`,
])

const port = flagValues(flags, '--port')[0] ?? '8787'
const ip = flagValues(flags, '--ip')[0] ?? '127.0.0.1'
const url = `http://${ip === '0.0.0.0' || ip === '*' ? '127.0.0.1' : ip}:${port}`
// Wrangler keeps its state beside the configuration file unless told where.
const stateDir = resolve(
  root,
  flagValues(flags, '--persist-to')[0] || join(dirname(configPath), DEFAULT_STATE_DIR),
)
const folder = takeFolder(stateDir, url)
if (!folder.taken) {
  const { pid, url: theirs } = folder.holder
  const shownState = relative(process.cwd(), stateDir) || '.'
  stop(
    `npm start already runs on ${shownState}: ${theirs} (pid ${pid}). Stop it first (Ctrl+C ` +
      `where it runs, or kill ${pid}), or start another beside it with state of its own: ` +
      'npm start -- --persist-to .wrangler/state-2 --port 8788 (npm run publish -- --state ' +
      '.wrangler/state-2 reaches that one)',
    'Nothing was started.',
  )
}
if (folder.stale !== null) {
  console.log(
    `Took over ${relative(process.cwd(), stateDir)} from npm start pid ${folder.stale}, which is gone.`,
  )
}
if (fresh) {
  clearState(stateDir)
  console.log('Started fresh (--fresh): no exports, no rate-limit records or penalties.')
}
if (givenFlags.length > 0) {
  const shown = givenFlags.map((setting) => {
    const colon = setting.indexOf(':')
    const name = colon < 0 ? setting : setting.slice(0, colon)
    return isSecret(name) ? `${name} (secret, not shown)` : `${name}=${setting.slice(colon + 1)}`
  })
  console.log(`Settings from --var: ${shown.join(', ')}`)
}
console.log(limitsLine())

if (quiet) console.log(`Starting wrangler dev on ${url} ...`)

const child = spawn('wrangler', ['dev', ...defaults, ...localFlags, ...flags], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    // Offline: no telemetry, no fetch of the Request.cf object, no banner.
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    // The build hook (scripts/wrangler-build.mjs) need not check again what was checked here.
    EXPORT_SERVICE_CHECKED: 'true',
  },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  forgetAddress()
  releaseFolder(stateDir)
  process.exit(signal ? 1 : (code ?? 0))
})
void whenReady()

function stop(...lines) {
  for (const line of lines) console.error(line)
  process.exit(1)
}

function isSecret(name) {
  return SECRETS.has(name) || /TOKEN|KEY|SECRET|PASSWORD/i.test(name)
}

/** Which limits apply, in one line: the first a person reads. */
function limitsLine() {
  const requests =
    `requests ${perSeconds(vars.RATE_LIMIT_SHORT)} and ` +
    `${perSeconds(vars.RATE_LIMIT_LONG)} per client`
  if (localLimits.RATE_LIMIT_MISSES) {
    return (
      'Local limits: no miss limit, so mistyped IDs lock nobody out ' +
      `(npm start -- ${PRODUCTION_LIMITS} applies it); ${requests}.`
    )
  }
  const label = productionLimits ? 'Production limits' : 'Limits'
  if (vars.RATE_LIMIT_MISSES === 'off') {
    return `${label}: no miss limit (RATE_LIMIT_MISSES=off); ${requests}.`
  }
  return (
    `${label}: ${perSeconds(vars.RATE_LIMIT_CLIENT_MISSES, 'misses')} per client, then every ` +
    `request is refused for ${vars.RATE_LIMIT_FIRST_PENALTY_SECONDS} s; ${requests}. Every ` +
    'request without CF-Connecting-IP is the same client.'
  )
}

/** "120/60" as "120 per 60 s" ("30 misses per 3600 s" with a noun). */
function perSeconds(budget, noun = '') {
  const [count, seconds] = String(budget).split('/')
  return `${count}${noun === '' ? '' : ` ${noun}`} per ${seconds} s`
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
