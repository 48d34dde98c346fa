/**
 * `npm start` as a person meets it, without the flags the other tests add: its first lines, the
 * limits that apply (a local client's mistyped IDs lock nobody out unless `--production-limits`),
 * the settings given with `--var` (secrets named, never shown), every setting the Worker would
 * refuse, in every spelling, stopping it before wrangler starts with its message first and alone;
 * the examples it publishes, with a curl line that works as printed; one `npm start` per folder,
 * and `npm run publish` finding it on the port it chose. `npm run deploy` refuses the same
 * settings, and wrangler.toml's placeholder KV ids, before wrangler runs.
 */
import { execFile, spawn, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../scripts/local-service.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ADDRESS_FILE = join(ROOT, '.wrangler', 'local-address')
const LOCK_FILE = join(ROOT, '.wrangler', 'state', 'npm-start.json')
/** 31 IDs as a person mistypes them: a published ID is 1 of 900,000 drawn at random, so never these. */
const MISTYPED = Array.from({ length: 31 }, (_, i) => String(100_001 + i))
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
  /** The state folder to run on (default: a fresh one). */
  stateDir?: string
  /** The command: `node scripts/start.mjs` (what `npm start` runs), or `npm run dev`. */
  command?: string[]
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
  const state = options.stateDir ?? freshState()
  const port = String(await freePort())
  const stateFlags = options.ownState ? [] : ['--persist-to', state]
  const [command, ...commandArgs] = options.command ?? [process.execPath, 'scripts/start.mjs']
  const child = spawn(command!, [...commandArgs, '--port', port, ...stateFlags, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
    // A group of its own, stopped as Ctrl+C stops it: npm does not pass SIGTERM on to the script.
    detached: true,
  })
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
      process.kill(-child.pid!, 'SIGINT')
      await exited
    }
    return { output, exitCode: null }
  }
  return { output, exitCode: child.exitCode }
}

function freshState(): string {
  const state = mkdtempSync(join(tmpdir(), 'export-service-start-'))
  states.push(state)
  return state
}

/** Status codes of GETs of `ids` from this machine, as curl sends them: no CF-Connecting-IP. */
async function statuses(url: string, ids: string[], tag = 'model'): Promise<number[]> {
  const codes: number[] = []
  for (const id of ids) codes.push((await fetch(`${url}/server-api?id=${id}&tag=${tag}`)).status)
  return codes
}

/** Runs a script of scripts/ to its end: its output and exit code. */
function runScript(script: string, ...args: string[]) {
  const done = spawnSync(process.execPath, [`scripts/${script}`, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return { output: done.stdout + done.stderr, exitCode: done.status }
}

/** The lines printed, but for the one a first start in a fresh clone adds (.dev.vars created). */
function ownLines(output: string): string[] {
  return output
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('Created .dev.vars'))
}

describe('npm start', () => {
  /** The state of the examples' start, which the next test starts on with `--fresh`. */
  let examplesState = ''
  let exampleId = ''

  it(
    'publishes the three fixtures once ready and prints their IDs, a curl line that works as printed and the try-it page; 31 mistyped IDs from this machine lock nobody out; npm run publish -- --state finds it',
    async () => {
      let fetched = ''
      let page: Response | undefined
      let misses: number[] = []
      let hit = 0
      let besideIt = ''
      examplesState = freshState()
      const { output } = await start([], /^Try it: .*$/m, {
        stateDir: examplesState,
        whileRunning: async (output) => {
          const curl = /^Fetch one: {2}(curl .*)$/m.exec(output)![1]!
          misses = await statuses(/^Ready on (\S+)\. /m.exec(output)![1]!, MISTYPED)
          fetched = (await run('sh', ['-c', curl], { maxBuffer: 16 * 1024 * 1024 })).stdout
          page = await fetch(/^Try it: {5}(\S+)$/m.exec(output)![1]!)
          const url = /^Fetch one: {2}curl '([^']+)'$/m.exec(output)![1]!
          hit = (await fetch(url)).status
          exampleId = /[?&]id=(\d+)/.exec(url)![1]!
          besideIt = (
            await run(process.execPath, [
              'scripts/publish.mjs',
              join(ROOT, 'fixtures', 'stone-gate-136-displays.json'),
              '--state',
              examplesState,
            ])
          ).stdout
        },
      })
      const lines = ownLines(output)
      expect(lines[0]).toBe(
        'Local limits: no miss limit, so mistyped IDs lock nobody out (npm start -- ' +
          '--production-limits applies it); requests 120 per 60 s and 1200 per 3600 s per client.',
      )
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
      expect(misses).toEqual(MISTYPED.map(() => 404))
      expect(hit).toBe(200)
      // A service on state of its own (--persist-to) is found by that folder.
      const address = /^Ready on (\S+)\. /m.exec(output)![1]!
      expect(besideIt).toContain(`Fetch it:      curl '${address}/server-api?id=`)
    },
    HANG_GUARD_MS,
  )

  it(
    'npm run dev -- --production-limits --fresh: says so, forgets the last run, and locks this machine out after its 31st mistyped ID; names secrets given with --var without their values',
    async () => {
      let gone = 0
      let misses: number[] = []
      let locked: Response | undefined
      expect(examplesState, 'runs on the state of the examples test, which runs first').not.toBe('')
      const { output } = await start(
        [
          '--production-limits',
          '--fresh',
          '--no-examples',
          '--var',
          'RATE_LIMIT_SHORT:500/60',
          'LOG_CLIENT_KEY:client-key-value-1',
          'PUBLISH_TOKEN:token-value-2',
          'PUBLISH_TOKEN_NEXT:token-value-3',
        ],
        /^Ready on /m,
        {
          command: ['npm', 'run', '--silent', 'dev', '--'],
          stateDir: examplesState,
          whileRunning: async (output) => {
            const url = /^Ready on (\S+)\. /m.exec(output)![1]!
            // The export the previous run published is gone with its state: a miss, the first.
            gone = (await statuses(url, [exampleId]))[0]!
            const published = await run(process.execPath, [
              'scripts/publish.mjs',
              join(ROOT, 'fixtures', 'reading-41-displays.json'),
              '--url',
              url,
              '--token',
              'token-value-2',
              '--json',
            ])
            const { id } = JSON.parse(published.stdout) as { id: string }
            misses = await statuses(url, MISTYPED.slice(1))
            locked = await fetch(`${url}/server-api?id=${id}&tag=model`)
          },
        },
      )
      const lines = ownLines(output)
      expect(lines.slice(0, 3)).toEqual([
        'Started fresh (--fresh): no exports, no rate-limit records or penalties.',
        'Settings from --var: RATE_LIMIT_SHORT=500/60, LOG_CLIENT_KEY (secret, not shown), ' +
          'PUBLISH_TOKEN (secret, not shown), PUBLISH_TOKEN_NEXT (secret, not shown)',
        'Production limits: 30 misses per 3600 s per client, then every request is refused for ' +
          '900 s; requests 500 per 60 s and 1200 per 3600 s per client. Every request without ' +
          'CF-Connecting-IP is the same client.',
      ])
      expect(lines[3]).toMatch(/^Starting wrangler dev on http:\/\/127\.0\.0\.1:\d+ \.\.\.$/)
      expect(lines.at(-1)).toMatch(
        new RegExp(
          String.raw`^Ready on http://127\.0\.0\.1:\d+\. Requests are not listed ` +
            String.raw`\(npm start -- --log-level log lists each with the service's JSON log line\); ` +
            String.raw`warnings and errors are\. Ctrl\+C stops\.$`,
        ),
      )
      expect(output).not.toMatch(/client-key-value-1|token-value-2|token-value-3/)
      expect(gone).toBe(404)
      // 31 misses are answered; the 31st starts the penalty that refuses what follows, a hit too.
      expect(misses).toEqual(MISTYPED.slice(1).map(() => 404))
      expect(locked?.status).toBe(429)
      expect(Number(locked?.headers.get('Retry-After'))).toBeGreaterThan(800)
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

  it.each([
    {
      given: 'RATE_LIMIT_SHORT:abc',
      says: 'The short rate limit must look like "120/60" (requests/seconds), got "abc"',
    },
    {
      given: 'RATE_LIMIT_SHORT=5/60',
      says: '--var RATE_LIMIT_SHORT=5/60: wrangler reads --var as NAME:value; write --var RATE_LIMIT_SHORT:5/60',
    },
    {
      given: 'RATE_LIMT_SHORT:5/60',
      says: '--var RATE_LIMT_SHORT: no setting of the service has this name. Did you mean RATE_LIMIT_SHORT?',
    },
  ])(
    'refuses --var $given before wrangler starts, with what to write',
    async ({ given, says }) => {
      const { output, exitCode } = await start(['--var', given], /^Ready on /m)
      expect(exitCode).toBe(1)
      expect(ownLines(output)).toEqual([
        says,
        'Nothing was started: change the setting and run npm start again.',
      ])
    },
    HANG_GUARD_MS,
  )

  it(
    'refuses a wrangler.toml with a TOML syntax error in one line: the file, the line and column, what is wrong',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'export-service-config-'))
      states.push(folder)
      const config = join(folder, 'wrangler.toml')
      const text = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8')
      writeFileSync(
        config,
        text.replace('RATE_LIMIT_SHORT = "120/60"', 'RATE_LIMIT_SHORT "120/60"'),
      )
      const line = text.split('\n').findIndex((l) => l === 'RATE_LIMIT_SHORT = "120/60"') + 1
      const { output, exitCode } = await start(['--config', config], /^Ready on /m)
      expect(exitCode).toBe(1)
      expect(ownLines(output)).toEqual([
        `${config}:${line}:18: not valid TOML, illegal character in key: RATE_LIMIT_SHORT "120/60"`,
        'Nothing was started: change the setting and run npm start again.',
      ])
    },
    HANG_GUARD_MS,
  )

  it(
    'refuses a name in .dev.vars that is no setting, naming the nearest one',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'export-service-config-'))
      states.push(folder)
      copyFileSync(join(ROOT, 'wrangler.toml'), join(folder, 'wrangler.toml'))
      writeFileSync(join(folder, '.dev.vars'), 'PUBLISH_TOKEN=t\nRATE_LIMIT_SHORTT=5/60\n')
      const { output, exitCode } = await start(
        ['--config', join(folder, 'wrangler.toml')],
        /^Ready on /m,
      )
      expect(exitCode).toBe(1)
      expect(ownLines(output)).toEqual([
        `${join(folder, '.dev.vars')}: RATE_LIMIT_SHORTT is no setting of the service. Did you mean RATE_LIMIT_SHORT?`,
        'Nothing was started: change the setting and run npm start again.',
      ])
    },
    HANG_GUARD_MS,
  )

  it(
    'runs once per folder: a second npm start refuses with the address and pid of the first, which keeps serving and npm run publish still finds; a holder that is gone is taken over',
    async () => {
      // A start killed before it could clean up left its file; its process is gone.
      const gone = spawnSync('true').pid
      mkdirSync(join(ROOT, '.wrangler', 'state'), { recursive: true })
      writeFileSync(LOCK_FILE, JSON.stringify({ pid: gone, url: 'http://127.0.0.1:1' }))
      let second = { output: '', exitCode: null as number | null }
      let reset = { output: '', exitCode: null as number | null }
      let published = ''
      let addressWhileRunning = ''
      let stillServing = 0
      let pid = 0
      const { output } = await start(['--no-examples'], /^Ready on /m, {
        ownState: true,
        whileRunning: async (output) => {
          pid = (JSON.parse(readFileSync(LOCK_FILE, 'utf8')) as { pid: number }).pid
          second = await start(['--no-examples'], /^Ready on /m, { ownState: true })
          reset = runScript('reset.mjs')
          addressWhileRunning = readFileSync(ADDRESS_FILE, 'utf8').trim()
          stillServing = (await fetch(/^Ready on (\S+)\. /m.exec(output)![1]!)).status
          published = (
            await run(process.execPath, [
              'scripts/publish.mjs',
              join(ROOT, 'fixtures', 'stone-gate-136-displays.json'),
            ])
          ).stdout
        },
      })
      const url = /^Ready on (\S+)\. /m.exec(output)![1]!
      expect(ownLines(output)[0]).toBe(
        `Took over .wrangler/state from npm start pid ${gone}, which is gone.`,
      )
      expect(second.exitCode).toBe(1)
      expect(ownLines(second.output)).toEqual([
        `npm start already runs on .wrangler/state: ${url} (pid ${pid}). Stop it first (Ctrl+C ` +
          `where it runs, or kill ${pid}), or start another beside it with state of its own: ` +
          'npm start -- --persist-to .wrangler/state-2 --port 8788 (npm run publish -- --state ' +
          '.wrangler/state-2 reaches that one)',
        'Nothing was started.',
      ])
      expect(reset.exitCode).toBe(1)
      expect(reset.output).toBe(
        `npm start runs on .wrangler/state: ${url} (pid ${pid}). Stop it first, or restart it ` +
          'empty with npm start -- --fresh. Nothing was reset.\n',
      )
      expect(stillServing).toBe(200)
      expect(addressWhileRunning).toBe(url)
      expect(published).toMatch(
        new RegExp(
          `^Fetch it: +curl '${url.replaceAll('.', '\\.')}/server-api\\?id=[1-9][0-9]{5}&tag=model'$`,
          'm',
        ),
      )
      expect(existsSync(ADDRESS_FILE)).toBe(false)
      expect(existsSync(LOCK_FILE)).toBe(false)
    },
    HANG_GUARD_MS,
  )
})

describe('npm run reset', () => {
  it('forgets what a stopped service stored, and only that', () => {
    const state = freshState()
    mkdirSync(join(state, 'v3', 'kv'), { recursive: true })
    writeFileSync(join(state, 'v3', 'kv', 'blob'), 'an export')
    // A folder named by mistake keeps what is not wrangler's.
    writeFileSync(join(state, 'notes.txt'), 'mine')
    const { output, exitCode } = runScript('reset.mjs', '--persist-to', state)
    expect(exitCode).toBe(0)
    expect(output).toMatch(
      /^Local state reset \(.*\): no exports, no rate-limit records or penalties\. \.dev\.vars is kept\.\n$/,
    )
    expect(existsSync(join(state, 'v3'))).toBe(false)
    expect(readFileSync(join(state, 'notes.txt'), 'utf8')).toBe('mine')
  })
})

describe('npm run deploy', () => {
  const home = mkdtempSync(join(tmpdir(), 'export-service-home-'))
  states.push(home)
  function deploy(...args: string[]) {
    const offline = {
      ...process.env,
      // No login: a deploy that reached wrangler would ask for one.
      HOME: home,
      XDG_CONFIG_HOME: home,
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

  it('refuses a setting the Worker would answer with a 500 before wrangler runs, in a dry run too', async () => {
    const { output, exitCode } = await deploy('--dry-run', '--var', 'RATE_LIMIT_FLUSH_SECONDS:12')
    expect(exitCode).toBe(1)
    expect(output.trim().split('\n')).toEqual([
      'RATE_LIMIT_FLUSH_SECONDS must be at most 9, got "12"',
      'Nothing was started or deployed (production): change the setting and deploy again.',
    ])
  })

  it('refuses the placeholder KV ids of wrangler.toml offline, before any login, and says how to create real ones', async () => {
    const { output, exitCode } = await deploy()
    expect(exitCode).toBe(1)
    expect(output.trim().split('\n')).toEqual([
      'wrangler.toml: the KV namespace EXPORTS has the placeholder id "00000000000000000000000000000000". ' +
        'Create the namespace once with `npx wrangler kv namespace create EXPORTS` and put the id ' +
        'it prints in [[kv_namespaces]].',
      'Nothing was started or deployed (production): change the setting and deploy again.',
    ])
    const staging = await deploy('--env', 'staging')
    expect(staging.exitCode).toBe(1)
    expect(staging.output).toContain(
      '`npx wrangler kv namespace create EXPORTS --env staging` and put the id it prints in ' +
        '[[env.staging.kv_namespaces]].',
    )
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
