/**
 * The one way scripts and tests start the real service locally: `npm start` (scripts/start.mjs,
 * so `wrangler dev` as a newcomer runs it) on a free loopback port with a fresh state folder and
 * the given vars, resolved once it answers HTTP. Used by the soak (scripts/soak.mjs) and the
 * end-to-end tests (test/e2e/local-service.ts: the command line, the typed client, the browser).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SERVER_API_PATH } from '../src/contract/routes.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** A guard against a start that hangs: about 3 s on a quiet machine, many times that on a busy one. */
const READY_TIMEOUT_MS = 120_000

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/**
 * A port found free may be taken by another process before wrangler binds it (two test suites
 * side by side each start services): such a start is tried again on another port.
 */
const START_ATTEMPTS = 3
const PORT_TAKEN = /Address already in use/

/** Starts `npm start` on a free port with `vars`; resolves once it answers HTTP. */
export async function startLocalService(vars = {}, options = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(vars, options)
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !PORT_TAKEN.test(String(error))) throw error
    }
  }
}

async function startOnce(vars, options) {
  const port = await freePort()
  const state =
    options.stateDir ?? mkdtempSync(join(tmpdir(), options.statePrefix ?? 'export-service-'))
  const varFlags = Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`])
  const child = spawn(
    process.execPath,
    [
      'scripts/start.mjs',
      // Tests count what they publish: the examples would be three exports more.
      '--no-examples',
      // What production does, unless the caller asks for what a developer's `npm start` does.
      ...(options.localLimits ? [] : ['--production-limits']),
      '--port',
      String(port),
      '--persist-to',
      state,
      '--log-level',
      'warn',
      ...varFlags,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
      detached: options.processGroup ?? false,
    },
  )
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk.toString()))
  child.stderr.on('data', (chunk) => (output += chunk.toString()))
  const removeState = () => {
    if (options.stateDir === undefined) rmSync(state, { recursive: true, force: true })
  }
  const url = `http://127.0.0.1:${port}`
  try {
    await waitUntilAnswering(url, child)
  } catch (error) {
    child.kill('SIGKILL')
    removeState()
    throw new Error(`local service did not start: ${String(error)}\n${output}`)
  }
  return {
    url,
    stateDir: state,
    async stop() {
      await stopProcess(child)
      removeState()
    },
    async crash() {
      if (!options.processGroup || child.pid === undefined) {
        throw new Error('crash() needs a service started with processGroup')
      }
      await killGroup(child.pid)
    },
  }
}
/** SIGKILL to the process group `pid` leads; resolves once no process of the group runs. */
async function killGroup(pid) {
  process.kill(-pid, 'SIGKILL')
  const deadline = Date.now() + 10_000
  while (livingMembers(pid) > 0) {
    if (Date.now() > deadline) throw new Error(`process group ${pid} alive 10 s after SIGKILL`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Processes of group `pgid` that are not zombies. A killed process stays a zombie until its
 * parent reaps it, which orphans may wait for a long time where PID 1 is not an init.
 */
function livingMembers(pgid) {
  let count = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue
    }
    // Fields after the command name, which is in parentheses and may hold spaces.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(group) === pgid && state !== 'Z') count++
  }
  return count
}
async function waitUntilAnswering(url, child) {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`)
    try {
      await fetch(`${url}${SERVER_API_PATH}`, { method: 'OPTIONS' })
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  throw new Error('timed out')
}

function stopProcess(child) {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
