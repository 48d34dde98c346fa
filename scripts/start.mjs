#!/usr/bin/env node
// `npm start [-- <wrangler dev flags>]`: the service on http://127.0.0.1:8787 with local KV and
// Durable Objects, offline and quiet. Creates .dev.vars from .dev.vars.example when missing.
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
if (!flags.some((f) => f === '--ip' || f.startsWith('--ip='))) defaults.push('--ip', '127.0.0.1')
if (!flags.some((f) => f === '--port' || f.startsWith('--port='))) defaults.push('--port', '8787')

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
