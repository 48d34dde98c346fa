/**
 * Starts the real service as a newcomer would (`wrangler dev`, via scripts/start.mjs) on a free
 * loopback port with a fresh state folder, for end-to-end tests that run in Node: the command
 * line, the typed client, the browser.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const E2E_PUBLISH_TOKEN = 'e2e-publish-token'
const READY_TIMEOUT_MS = 60_000

export interface LocalService {
  url: string
  /** The service's `--persist-to` folder: local KV, Durable Objects and caches. */
  stateDir: string
  stop(): Promise<void>
  /**
   * Kills the whole process group (wrangler, workerd and all) with SIGKILL, as a crash would,
   * and resolves once every process of it is gone. Only with `processGroup`.
   */
  crash(): Promise<void>
}

export interface LocalServiceOptions {
  /** Persist state in this folder and leave it there on stop (default: a fresh one, removed). */
  stateDir?: string
  /** Start the service in a process group of its own, so that `crash()` can kill all of it. */
  processGroup?: boolean
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
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

/** Starts `npm start` on a free port with the given vars; resolves once it answers HTTP. */
export async function startLocalService(
  vars: Record<string, string> = {},
  options: LocalServiceOptions = {},
): Promise<LocalService> {
  const port = await freePort()
  const state = options.stateDir ?? mkdtempSync(join(tmpdir(), 'export-service-e2e-'))
  const varFlags = Object.entries({ PUBLISH_TOKEN: E2E_PUBLISH_TOKEN, ...vars }).flatMap(
    ([name, value]) => ['--var', `${name}:${value}`],
  )
  const child = spawn(
    process.execPath,
    [
      'scripts/start.mjs',
      '--port',
      String(port),
      '--persist-to',
      state,
      '--log-level',
      'warn',
      ...varFlags,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
      detached: options.processGroup ?? false,
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  try {
    await waitUntilAnswering(url, child)
  } catch (error) {
    child.kill('SIGKILL')
    throw new Error(`local service did not start: ${String(error)}\n${output}`)
  }
  return {
    url,
    stateDir: state,
    async stop() {
      await stopProcess(child)
      if (options.stateDir === undefined) rmSync(state, { recursive: true, force: true })
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
async function killGroup(pid: number): Promise<void> {
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
function livingMembers(pgid: number): number {
  let count = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
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
async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`)
    try {
      await fetch(`${url}/server-api`, { method: 'OPTIONS' })
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  throw new Error('timed out')
}

function stopProcess(child: ChildProcess): Promise<void> {
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
