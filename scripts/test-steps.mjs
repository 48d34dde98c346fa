#!/usr/bin/env node
/**
 * `npm test`: the checks, then the vitest projects. The checks are independent of each other, so
 * they run side by side, as many at once as the machine has cores (at least two): each is named
 * as it starts and timed as it ends, and its output is printed whole when it ends, never mixed with
 * another's. Every check runs to its end, so one run shows every failing check; if any failed, the
 * run ends there with the first failure's exit code. Vitest runs last and prints last (its closing
 * lines are what CI reads), so its time is its own `Duration` line. A script whose body is an `&&`
 * chain (the type checks) runs as one check per command, each named.
 *
 * `--quick` (`npm run test:quick`): the type checks, then the fast unit tests and one end-to-end
 * smoke test (`QUICK_TESTS`): a minute's check before a commit, not a replacement for `npm test`.
 * Other arguments are vitest's (`npm test -- --project workers`).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'

/** The package.json scripts `npm test` runs before vitest. */
const CHECKS = ['check:links', 'typecheck', 'check:layers', 'check:unused']
const QUICK_CHECKS = ['typecheck']
/**
 * What `--quick` runs of the suite: unit tests that take a second or two each, and the service
 * started once as `npm start` starts it. Vitest reads each as a part of a test file's path.
 */
const QUICK_TESTS = [
  'test/substitution/',
  'test/json/',
  'test/ids/slot-index.test.ts',
  'test/settings/',
  'test/http/error-body.test.ts',
  'test/contract/versions.test.ts',
  'test/docs/',
  'test/e2e/smoke.test.ts',
]
/** Checks at once: each is one busy process, so one a core; two even on one core, as most wait. */
const PARALLEL = Math.max(2, availableParallelism())

const quick = process.argv.includes('--quick')
/** The other arguments go to vitest: `npm test -- --project workers`. */
const vitestArgs = process.argv.slice(2).filter((arg) => arg !== '--quick')
const root = fileURLToPath(new URL('..', import.meta.url))
const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

const steps = (quick ? QUICK_CHECKS : CHECKS).flatMap((name) => {
  const commands = scripts[name].split(' && ')
  if (commands.length === 1) return [{ name, command: `npm run ${name}` }]
  return commands.map((command, index) => ({
    name: `${name} ${index + 1}/${commands.length}`,
    command: command.trim(),
  }))
})
const vitest = ['vitest run', ...(quick ? QUICK_TESTS : []), ...vitestArgs.map(quoted)].join(' ')
const total = steps.length + 1

const started = Date.now()
const failures = await runAll(steps, PARALLEL)
const checksTook = seconds(Date.now() - started)
if (failures.length > 0) {
  const names = failures.map(({ step }) => step.name).join(', ')
  console.log(`${failures.length} of ${steps.length} checks failed (${names}) in ${checksTook}`)
  process.exit(failures[0].code)
}
console.log(
  `[${total}/${total}] ${vitest} (checks took ${checksTook}, ${PARALLEL} at once; ` +
    'vitest prints its own duration last)',
)
process.exit(await run(vitest, 'inherit').then(({ code }) => code))

/** Runs `steps`, `parallel` at once, in order of start; resolves with the failed ones, in order. */
async function runAll(steps, parallel) {
  const failed = []
  let next = 0
  async function lane() {
    while (next < steps.length) {
      const index = next++
      const step = steps[index]
      const label = `[${index + 1}/${total}] ${step.name}`
      console.log(`${label}: ${step.command}`)
      const stepStarted = Date.now()
      const { code, output } = await run(step.command, 'pipe')
      const took = seconds(Date.now() - stepStarted)
      const verdict = code === 0 ? 'passed' : `failed (exit ${code})`
      process.stdout.write(`${label} ${verdict} in ${took}\n${output}`)
      if (code !== 0) failed.push({ index, step, code })
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, steps.length) }, lane))
  return failed.sort((a, b) => a.index - b.index)
}

/** Runs `command` in a shell at the root; its output inherited, or collected (stdout and stderr). */
function run(command, stdio) {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: root, shell: true, stdio: ['inherit', stdio, stdio] })
    let output = ''
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    child.on('exit', (code, signal) => resolve({ code: signal ? 1 : (code ?? 1), output }))
  })
}

/** `arg` as one word to the shell. */
function quoted(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`
}
