#!/usr/bin/env node
// `npm start [-- <wrangler dev flags>]`: the service on http://127.0.0.1:8787 with local KV and
// Durable Objects, offline and quiet. Creates .dev.vars from .dev.vars.example when missing.
//
// Quiet means: wrangler runs at `--log-level warn` unless told otherwise, so a request prints
// nothing (at `info` it prints two lines, wrangler's and the service's JSON log line), and this
// script says what a person needs instead: the settings given with --var (wrangler's own table
// shows them as "(hidden)"), and when the service answers.
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

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

const settings = flagValues('--var')
if (settings.length > 0)
  console.log(`Settings from --var: ${settings.map((s) => s.replace(':', '=')).join(', ')}`)
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

/** Prints one line once the service answers, unless wrangler has exited first. */
async function announceReady() {
  while (child.exitCode === null) {
    try {
      await fetch(`${url}/server-api`, { method: 'OPTIONS' })
      console.log(
        `Ready on ${url}. Requests are not listed (npm start -- --log-level info lists them); warnings and errors are. Ctrl+C stops.`,
      )
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}
