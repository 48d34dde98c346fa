#!/usr/bin/env node
// `npm start [-- <wrangler dev flags>]`: the service on http://127.0.0.1:8787 with local KV and
// Durable Objects, offline and quiet. Creates .dev.vars from .dev.vars.example when missing.
//
// Quiet means: wrangler runs at `--log-level warn` unless told otherwise, so a request prints
// nothing (at `info` wrangler's own line; at `log` also the service's JSON log line, and
// wrangler's build output and table of bindings), and this script says what a person needs
// instead: the settings given with --var (the values of secrets never), and when the service
// answers. A setting the Worker would refuse at startup stops it here, before wrangler starts.
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defaultTagProblem } from '../src/contract/wire.ts'

/** Settings whose values are secrets: named when given, never printed. */
const SECRETS = new Set(['PUBLISH_TOKEN', 'PUBLISH_TOKEN_NEXT', 'LOG_CLIENT_KEY'])

const root = fileURLToPath(new URL('..', import.meta.url))
const devVars = new URL('../.dev.vars', import.meta.url)
if (!existsSync(devVars)) {
  copyFileSync(new URL('../.dev.vars.example', import.meta.url), devVars)
  console.log('Created .dev.vars from .dev.vars.example (local PUBLISH_TOKEN=dev-publish-token).')
}

const flags = process.argv.slice(2)
const defaults = []
if (flagValues('--ip').length === 0) defaults.push('--ip', '127.0.0.1')
if (flagValues('--port').length === 0) defaults.push('--port', '8787')
const quiet = flagValues('--log-level').length === 0
if (quiet) defaults.push('--log-level', 'warn')

const settings = flagValues('--var').map((setting) => {
  const colon = setting.indexOf(':')
  return colon < 0
    ? { name: setting, value: '' }
    : { name: setting.slice(0, colon), value: setting.slice(colon + 1) }
})
// A setting the Worker would refuse at startup is refused here, before wrangler starts: its
// message alone, not buried under workerd's own report of a Worker that failed to start.
const problems = settingProblems()
if (problems.length > 0) {
  for (const problem of problems) console.error(problem)
  console.error('Nothing was started: change the setting and run npm start again.')
  process.exit(1)
}
if (settings.length > 0) {
  const shown = settings.map(({ name, value }) =>
    isSecret(name) ? `${name} (secret, not shown)` : `${name}=${value}`,
  )
  console.log(`Settings from --var: ${shown.join(', ')}`)
}
const port = flagValues('--port')[0] ?? '8787'
const ip = flagValues('--ip')[0] ?? '127.0.0.1'
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
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)))
if (quiet) void announceReady()

/** Every value given to `name`, as `--name value ...` (wrangler's arrays) or `--name=value`. */
function flagValues(name) {
  const values = []
  for (let i = 0; i < flags.length; i++) {
    if (flags[i].startsWith(`${name}=`)) values.push(flags[i].slice(name.length + 1))
    else if (flags[i] === name) {
      while (i + 1 < flags.length && !flags[i + 1].startsWith('--')) values.push(flags[++i])
    }
  }
  return values
}

function isSecret(name) {
  return SECRETS.has(name) || /TOKEN|KEY|SECRET|PASSWORD/i.test(name)
}

/**
 * What the Worker would refuse at startup (src/index.ts), checked with the same rule on the value
 * wrangler dev would give it: `--var` first, then `.dev.vars`, then `wrangler.toml`'s `[vars]`.
 */
function settingProblems() {
  const given = settings.findLast(({ name }) => name === 'DEFAULT_TAG')
  const value =
    given?.value ??
    dotenvValue(new URL('../.dev.vars', import.meta.url), 'DEFAULT_TAG') ??
    topLevelVar('DEFAULT_TAG')
  if (value === undefined) return []
  const problem = defaultTagProblem(value)
  return problem === null ? [] : [problem]
}

/** `NAME=value` (quotes optional) of a dotenv file such as .dev.vars, or undefined. */
function dotenvValue(file, name) {
  if (!existsSync(file)) return undefined
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = new RegExp(`^\\s*${name}\\s*=\\s*(.*?)\\s*$`).exec(line)
    if (match) return unquote(match[1])
  }
  return undefined
}

/** `NAME = "value"` in wrangler.toml's top-level `[vars]` table, or undefined. */
function topLevelVar(name) {
  const toml = readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8')
  const vars = /^\[vars\]\s*$([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? ''
  const match = new RegExp(`^\\s*${name}\\s*=\\s*(.*?)\\s*$`, 'm').exec(vars)
  return match ? unquote(match[1]) : undefined
}

function unquote(text) {
  const quoted = /^(["'])(.*)\1$/.exec(text)
  return quoted ? quoted[2] : text
}

/** Prints one line once the service answers, unless wrangler has exited first. */
async function announceReady() {
  while (child.exitCode === null) {
    try {
      await fetch(`${url}/server-api`, { method: 'OPTIONS' })
      console.log(
        `Ready on ${url}. Requests are not listed (npm start -- --log-level log lists each with the service's JSON log line); warnings and errors are. Ctrl+C stops.`,
      )
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}
