/**
 * Plain `npx wrangler dev`, as the Workers templates teach it, without `npm start`: the build
 * hook of wrangler.toml runs the settings check (scripts/wrangler-build.mjs), and the project's
 * .env keeps wrangler offline, with no ENOTFOUND for the `Request.cf` object it would fetch.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../scripts/local-service.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** A guard against a start that hangs, not a speed bound. */
const HANG_GUARD_MS = 90_000
const state = mkdtempSync(join(tmpdir(), 'export-service-wrangler-dev-'))
afterAll(() => rmSync(state, { recursive: true, force: true }))

/**
 * `npx wrangler dev <args>` from a shell that has none of the variables `npm start` sets, until
 * its output matches `until` or it exits; `whileRunning` then gets its address.
 */
async function wranglerDev(
  args: string[],
  until: RegExp,
  whileRunning?: (url: string) => Promise<void>,
): Promise<{ output: string; exitCode: number | null }> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, WRANGLER_LOG: 'log' }
  for (const name of ['CLOUDFLARE_CF_FETCH_ENABLED', 'WRANGLER_SEND_METRICS', 'CI']) {
    delete env[name]
  }
  const child = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(port), '--persist-to', state, ...args],
    // A group of its own: npx, wrangler and workerd are stopped together.
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  let output = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const seen = new Promise<void>((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      if (until.test(output)) resolve()
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
  })
  const ended = await Promise.race([seen.then(() => 'seen' as const), exited])
  if (ended !== 'seen' || child.exitCode !== null) return { output, exitCode: child.exitCode }
  try {
    await whileRunning?.(`http://127.0.0.1:${port}`)
  } finally {
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
  return { output, exitCode: null }
}

describe('npx wrangler dev', () => {
  it(
    'refuses --var NAME=value in its build step, with the form wrangler reads, and starts nothing',
    async () => {
      const { output, exitCode } = await wranglerDev(['--var', 'RATE_LIMIT_SHORT=5/60'], /Ready on/)
      expect(exitCode).not.toBe(0)
      expect(output).toContain(
        '[custom build] --var RATE_LIMIT_SHORT=5/60: wrangler reads --var as NAME:value; write --var RATE_LIMIT_SHORT:5/60',
      )
      expect(output).toContain(
        '[custom build] Nothing was started: change the setting and run wrangler dev again.',
      )
      expect(output).not.toContain('Ready on')
    },
    HANG_GUARD_MS,
  )

  it(
    'serves offline without trying to fetch the Request.cf object',
    async () => {
      let status = 0
      const { output } = await wranglerDev([], /Ready on/, async (url) => {
        status = (await fetch(`${url}/server-api?id=100001`)).status
      })
      expect(status).toBe(404)
      expect(output).not.toMatch(/ENOTFOUND|Unable to fetch the `Request\.cf` object/)
    },
    HANG_GUARD_MS,
  )
})
