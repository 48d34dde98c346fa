/**
 * `npm start` as a person meets it, without the flags the other tests add: its first lines, the
 * settings given with `--var` (secrets named, never shown), every setting the Worker would refuse
 * stopping it before wrangler starts, its message first and alone; the examples it publishes, with
 * a curl line that works as printed; and `npm run publish` finding it on the port it chose.
 * `npm run deploy` refuses the same settings before wrangler runs.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../scripts/local-service.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ADDRESS_FILE = join(ROOT, '.wrangler', 'local-address')
const run = promisify(execFile)
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

interface StartOptions {
  /** Run with wrangler's default state (`.wrangler/state`), as a person does: no --persist-to. */
  ownState?: boolean
  /** Called with the output so far once `until` matched, while the service still runs. */
  whileRunning?: (output: string) => Promise<void>
}

/**
 * Runs `node scripts/start.mjs` (what `npm start` runs) with `args` on a free port and fresh
 * state, until its output matches `until` or it exits; then stops it.
 */
async function start(args: string[], until: RegExp, options: StartOptions = {}): Promise<Started> {
  // A port found free may be taken before wrangler binds it (suites side by side): try another.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(args, until, options)
    if (attempt >= 3 || !/Address already in use/.test(started.output)) return started
  }
}

async function startOnce(args: string[], until: RegExp, options: StartOptions): Promise<Started> {
  const state = mkdtempSync(join(tmpdir(), 'export-service-start-'))
  states.push(state)
  const port = String(await freePort())
  const stateFlags = options.ownState ? [] : ['--persist-to', state]
  const child = spawn(
    process.execPath,
    ['scripts/start.mjs', '--port', port, ...stateFlags, ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    },
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
    try {
      await options.whileRunning?.(output)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
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
          '--no-examples',
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

  it(
    'refuses every setting the Worker would answer with a 500, with its message, before wrangler starts',
    async () => {
      const { output, exitCode } = await start(['--var', 'RATE_LIMIT_SHORT:abc'], /^Ready on /m)
      expect(exitCode).toBe(1)
      expect(ownLines(output)).toEqual([
        'The short rate limit must look like "120/60" (requests/seconds), got "abc"',
        'Nothing was started: change the setting and run npm start again.',
      ])
    },
    HANG_GUARD_MS,
  )

  it(
    'publishes the three fixtures once ready and prints their IDs, a curl line that works as printed and the try-it page',
    async () => {
      let fetched = ''
      let page: Response | undefined
      const { output } = await start([], /^Try it: .*$/m, {
        whileRunning: async (output) => {
          const curl = /^Fetch one: {2}(curl .*)$/m.exec(output)![1]!
          fetched = (await run('sh', ['-c', curl], { maxBuffer: 16 * 1024 * 1024 })).stdout
          page = await fetch(/^Try it: {5}(\S+)$/m.exec(output)![1]!)
        },
      })
      const lines = ownLines(output)
      const ready = lines.findIndex((line) => line.startsWith('Ready on '))
      expect(lines.slice(ready + 1)).toEqual([
        'Examples from fixtures/, published for 10 minutes (--no-examples leaves them out):',
        expect.stringMatching(/^ {2}[1-9][0-9]{5} {2}reading-41-displays\.json$/),
        expect.stringMatching(/^ {2}[1-9][0-9]{5} {2}animated-80-displays\.json$/),
        expect.stringMatching(/^ {2}[1-9][0-9]{5} {2}stone-gate-136-displays\.json$/),
        expect.stringMatching(
          /^Fetch one: {2}curl 'http:\/\/127\.0\.0\.1:\d+\/server-api\?id=[1-9][0-9]{5}&tag=my_model_1'$/,
        ),
        expect.stringMatching(
          /^Try it: {5}http:\/\/127\.0\.0\.1:\d+\/\?id=[1-9][0-9]{5}&tag=my_model_1$/,
        ),
      ])
      const fixture = readFileSync(join(ROOT, 'fixtures', 'reading-41-displays.json'), 'utf8')
      expect(fetched).toBe(fixture.replaceAll('[MODELSERVERTAG]', 'my_model_1'))
      expect(page?.status).toBe(200)
      expect(page?.headers.get('content-type')).toMatch(/^text\/html/)
    },
    HANG_GUARD_MS,
  )

  it(
    'tells npm run publish where it runs, so publishing needs no --url on any port',
    async () => {
      let published = ''
      let addressWhileRunning = ''
      const { output } = await start(['--no-examples'], /^Ready on /m, {
        ownState: true,
        whileRunning: async () => {
          addressWhileRunning = readFileSync(ADDRESS_FILE, 'utf8').trim()
          published = (
            await run(process.execPath, [
              'scripts/publish.mjs',
              join(ROOT, 'fixtures', 'stone-gate-136-displays.json'),
            ])
          ).stdout
        },
      })
      const url = /^Ready on (\S+)\. /m.exec(output)![1]!
      expect(addressWhileRunning).toBe(url)
      expect(published).toMatch(
        new RegExp(
          `^Fetch it: +curl '${url.replaceAll('.', '\\.')}/server-api\\?id=[1-9][0-9]{5}&tag=model'$`,
          'm',
        ),
      )
      expect(existsSync(ADDRESS_FILE)).toBe(false)
    },
    HANG_GUARD_MS,
  )
})

describe('npm run deploy', () => {
  function deploy(...args: string[]) {
    const offline = {
      ...process.env,
      // The test run quiets wrangler (vitest.config.ts): the deploy prints as from a shell.
      WRANGLER_LOG: 'log',
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_HIDE_BANNER: 'true',
    }
    return run(process.execPath, ['scripts/deploy.mjs', ...args], { cwd: ROOT, env: offline }).then(
      ({ stdout, stderr }) => ({ output: stdout + stderr, exitCode: 0 }),
      (error: { stdout: string; stderr: string; code: number }) => ({
        output: error.stdout + error.stderr,
        exitCode: error.code,
      }),
    )
  }

  it('refuses a setting the Worker would answer with a 500 before wrangler runs', async () => {
    const { output, exitCode } = await deploy('--var', 'RATE_LIMIT_FLUSH_SECONDS:12')
    expect(exitCode).toBe(1)
    expect(output.trim().split('\n')).toEqual([
      'RATE_LIMIT_FLUSH_SECONDS must be at most 9, got "12"',
      'Nothing was started or deployed (production): change the setting and deploy again.',
    ])
  })

  it('checks the environment it deploys: staging has vars of its own', async () => {
    const { output, exitCode } = await deploy('--env', 'staging', '--var', 'EXPORT_POLICY:none')
    expect(exitCode).toBe(1)
    expect(output).toContain('EXPORT_POLICY must be "display-models" or "off", got "none"')
    expect(output).toContain('Nothing was started or deployed (staging)')
  })

  it(
    'hands a deploy whose settings all work to wrangler',
    async () => {
      const outdir = mkdtempSync(join(tmpdir(), 'export-service-deploy-'))
      states.push(outdir)
      const { output, exitCode } = await deploy('--dry-run', '--outdir', outdir)
      expect(output).toContain('--dry-run: exiting now.')
      expect(exitCode).toBe(0)
      expect(existsSync(join(outdir, 'index.js'))).toBe(true)
    },
    HANG_GUARD_MS,
  )
})
