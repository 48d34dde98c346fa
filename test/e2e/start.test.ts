/**
 * `npm start` as a person meets it, without the flags the other tests add: its first lines, the
 * settings given with `--var` (secrets named, never shown), and a setting the Worker would refuse
 * stopping it before wrangler starts, its message first and alone.
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
const states: string[] = []
afterAll(() => {
  for (const state of states) rmSync(state, { recursive: true, force: true })
})

interface Started {
  output: string
  exitCode: number | null
}

/**
 * Runs `node scripts/start.mjs` (what `npm start` runs) with `args` on a free port and fresh
 * state, until its output matches `until` or it exits; then stops it.
 */
async function start(args: string[], until: RegExp): Promise<Started> {
  // A port found free may be taken before wrangler binds it (suites side by side): try another.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(args, until)
    if (attempt >= 3 || !/Address already in use/.test(started.output)) return started
  }
}

async function startOnce(args: string[], until: RegExp): Promise<Started> {
  const state = mkdtempSync(join(tmpdir(), 'export-service-start-'))
  states.push(state)
  const port = String(await freePort())
  const child = spawn(
    process.execPath,
    ['scripts/start.mjs', '--port', port, '--persist-to', state, ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } },
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
  if (ended === 'seen' && child.exitCode === null) {
    child.kill('SIGTERM')
    await exited
    return { output, exitCode: null }
  }
  return { output, exitCode: child.exitCode }
}

/** The lines printed, but for the one a first start in a fresh clone adds (.dev.vars created). */
function ownLines(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('Created .dev.vars'))
}

describe('npm start', () => {
  it(
    'says which settings it was given and when the service is ready, naming secrets without their values',
    async () => {
      const { output } = await start(
        [
          '--var',
          'RATE_LIMIT_SHORT:5/60',
          'LOG_CLIENT_KEY:client-key-value-1',
          'PUBLISH_TOKEN:token-value-2',
          'PUBLISH_TOKEN_NEXT:token-value-3',
        ],
        /^Ready on /m,
      )
      const lines = ownLines(output)
      expect(lines[0]).toBe(
        'Settings from --var: RATE_LIMIT_SHORT=5/60, LOG_CLIENT_KEY (secret, not shown), ' +
          'PUBLISH_TOKEN (secret, not shown), PUBLISH_TOKEN_NEXT (secret, not shown)',
      )
      expect(lines[1]).toMatch(/^Starting wrangler dev on http:\/\/127\.0\.0\.1:\d+ \.\.\.$/)
      expect(lines.at(-1)).toMatch(
        new RegExp(
          String.raw`^Ready on http://127\.0\.0\.1:\d+\. Requests are not listed ` +
            String.raw`\(npm start -- --log-level log lists each with the service's JSON log line\); ` +
            String.raw`warnings and errors are\. Ctrl\+C stops\.$`,
        ),
      )
      expect(output).not.toMatch(/client-key-value-1|token-value-2|token-value-3/)
    },
    HANG_GUARD_MS,
  )

  it(
    'refuses a DEFAULT_TAG that is not a tag before wrangler starts, with that message alone',
    async () => {
      const { output, exitCode } = await start(['--var', 'DEFAULT_TAG:bad tag!'], /^Ready on /m)
      expect(exitCode).toBe(1)
      expect(ownLines(output)).toEqual([
        'DEFAULT_TAG must be a tag: 1 to 100 ASCII letters, digits, "_" or "-" (for example "model" or "bde"); got "bad tag!".',
        'Nothing was started: change the setting and run npm start again.',
      ])
    },
    HANG_GUARD_MS,
  )
})
