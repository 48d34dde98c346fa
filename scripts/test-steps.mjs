#!/usr/bin/env node
/**
 * `npm test`: the checks, then the vitest projects, one step at a time. Each step is named as it
 * starts and timed as it ends, so the minutes before vitest are not silent; the first failing step
 * ends the run with its exit code. Vitest runs last and prints last (its closing lines are what CI
 * reads), so its time is its own `Duration` line. A script whose body is an `&&` chain (the type
 * checks) runs as one step per command, each named.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The package.json scripts `npm test` runs before vitest, in order. */
const CHECKS = ['check:links', 'typecheck', 'check:layers', 'check:unused']
const VITEST = 'vitest run'

const root = fileURLToPath(new URL('..', import.meta.url))
const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

const steps = CHECKS.flatMap((name) => {
  const commands = scripts[name].split(' && ')
  if (commands.length === 1) return [{ name, command: `npm run ${name}` }]
  return commands.map((command, index) => ({
    name: `${name} ${index + 1}/${commands.length}`,
    command: command.trim(),
  }))
})

const started = Date.now()
for (const [index, step] of steps.entries()) {
  console.log(`[${index + 1}/${steps.length + 1}] ${step.name}: ${step.command}`)
  const stepStarted = Date.now()
  const code = await run(step.command)
  const took = seconds(Date.now() - stepStarted)
  if (code !== 0) {
    console.log(`[${index + 1}/${steps.length + 1}] ${step.name} failed (exit ${code}) in ${took}`)
    process.exit(code)
  }
  console.log(`[${index + 1}/${steps.length + 1}] ${step.name} passed in ${took}`)
}
console.log(
  `[${steps.length + 1}/${steps.length + 1}] ${VITEST} (checks took ${seconds(Date.now() - started)}; ` +
    'vitest prints its own duration last)',
)
process.exit(await run(VITEST))

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: root, shell: true, stdio: 'inherit' })
    child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)))
  })
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`
}
