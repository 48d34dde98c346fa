#!/usr/bin/env node
// End-to-end check of the command-line publisher, outside vitest (whose workerd cannot spawn
// processes): starts `wrangler dev` on a free port with fresh local state, publishes a fixture
// with scripts/publish.mjs, fetches it back with a tag and compares. Prints one pass/fail line;
// exits non-zero on failure. Run it through npm or npx so that wrangler gets Node 22.
import { spawn, execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const FIXTURE = fileURLToPath(
  new URL('../../shared/fixtures/reading-41-displays.json', import.meta.url),
)
const TOKEN = 'check-cli-token'
const TAG = 'cli_check'
const READY_TIMEOUT_MS = 60_000

const port = await freePort()
const base = `http://127.0.0.1:${port}`
const state = mkdtempSync(join(tmpdir(), 'check-cli-'))
const server = spawn(
  'npx',
  ['--no-install', 'wrangler', 'dev', '--ip', '127.0.0.1', '--port', String(port)].concat([
    '--persist-to',
    state,
    '--log-level',
    'warn',
    '--var',
    `PUBLISH_TOKEN:${TOKEN}`,
  ]),
  {
    cwd: root,
    detached: true, // its own process group, so the whole tree stops with it
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_HIDE_BANNER: 'true',
    },
  },
)
let serverLog = ''
server.stdout.on('data', (chunk) => (serverLog += chunk))
server.stderr.on('data', (chunk) => (serverLog += chunk))

let failure = null
try {
  await waitUntilAnswering()
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/publish.mjs', FIXTURE, '--url', base, '--token', TOKEN, '--json'],
    { cwd: root },
  )
  const published = JSON.parse(stdout)
  check(/^[1-9][0-9]{5}$/.test(published.id), `publish printed no six-digit ID: ${stdout}`)
  check(
    published.quickCommand === `/model spawn ${published.id}`,
    `quick command ${published.quickCommand}`,
  )

  const res = await fetch(`${base}/server-api?id=${published.id}&tag=${TAG}`)
  const body = await res.text()
  check(res.status === 200, `GET answered ${res.status}: ${body.slice(0, 200)}`)
  const expected = readFileSync(FIXTURE, 'utf8').replaceAll('[MODELSERVERTAG]', TAG)
  check(body === expected, 'GET did not return the fixture with the tag substituted')
} catch (error) {
  failure = error.stderr?.trim() || error.message
} finally {
  await stop(server)
  rmSync(state, { recursive: true, force: true })
}

if (failure === null) {
  console.log('PASS check-cli: npm run publish -> GET with tag, against wrangler dev')
} else {
  console.log(`FAIL check-cli: ${failure}`)
  if (serverLog.trim()) console.log(`wrangler dev output:\n${serverLog.trim()}`)
  process.exitCode = 1
}

function check(condition, message) {
  if (!condition) throw new Error(message)
}

async function waitUntilAnswering() {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited with ${server.exitCode}`)
    try {
      await fetch(`${base}/server-api?id=100000`)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  throw new Error(`wrangler dev did not answer within ${READY_TIMEOUT_MS / 1000} s`)
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** Stops the server's process group: SIGTERM, then SIGKILL if it lingers. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal)
    } catch {
      child.kill(signal)
    }
  }
  signalGroup('SIGTERM')
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 5000).unref())
  if ((await Promise.race([exited, timeout])) === 'timeout') signalGroup('SIGKILL')
}
