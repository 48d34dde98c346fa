#!/usr/bin/env node
// wrangler.toml's `[build] command`, which wrangler runs before `wrangler dev` (again when a
// watched folder changes) and `wrangler deploy`: the settings check, then the try-it page's build
// (web/try-it/build.mjs). The check is how a plain `npx wrangler dev`, as the Workers templates
// teach, refuses a setting the Worker would refuse, as `npm start` does; `npm start` and
// `npm run deploy` have checked before wrangler ran and say so (EXPORT_SERVICE_CHECKED).
//
// Wrangler tells a build only its command (WRANGLER_COMMAND); the flags it was given (`--env`,
// `--var`, `--config`, `--dry-run`) are read from its command line where the system shows it
// (Linux's /proc), else the check covers the configuration file and .dev.vars only.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { flagValues } from './cli-flags.mjs'
import { configPathOf, preflight } from './settings-check.mjs'

/** Wrangler's own script on a command line: its bin, or the bundle the bin runs. */
const WRANGLER_SCRIPT = /(^|\/)(wrangler|wrangler\.js|wrangler-dist\/cli\.js)$/

const command = process.env.WRANGLER_COMMAND ?? ''
if (process.env.EXPORT_SERVICE_CHECKED !== 'true' && ['dev', 'deploy'].includes(command)) {
  const flags = wranglerFlags()
  const environment = flagValues(flags, '--env')[0] ?? flagValues(flags, '-e')[0] ?? ''
  const problems = await preflight({
    configPath: configPathOf(flagValues(flags, '--config')[0] ?? flagValues(flags, '-c')[0]),
    environment,
    varFlags: flagValues(flags, '--var'),
    dev: command === 'dev',
    deploy: command === 'deploy' && !flags.includes('--dry-run'),
  })
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem)
    console.error(`Nothing was started: change the setting and run wrangler ${command} again.`)
    process.exit(1)
  }
}

const page = fileURLToPath(new URL('../web/try-it/build.mjs', import.meta.url))
const built = spawnSync(process.execPath, [page], { stdio: 'inherit' })
process.exit(built.status ?? 1)

/** The flags of the wrangler process that runs this build, if the system shows them. */
function wranglerFlags() {
  let pid = process.ppid
  // Wrangler runs the command through a shell: its process is the parent or the grandparent.
  for (let depth = 0; depth < 3 && pid > 1; depth++) {
    let args
    let stat
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      return []
    }
    const at = args.findIndex((arg) => WRANGLER_SCRIPT.test(arg))
    if (at >= 0) return args.slice(at + 1)
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  }
  return []
}
