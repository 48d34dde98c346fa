#!/usr/bin/env node
// `npm run deploy [-- <wrangler deploy flags>]` (production, `--env=''`) and
// `npm run deploy:staging` (`--env staging`): every setting of that environment (its `[vars]` in
// wrangler.toml, and `--var` given here) is read by the product's own parsers first
// (scripts/settings-check.mjs); one the Worker would refuse stops the deploy before wrangler runs,
// with the Worker's message, and the running version stays. So does a KV namespace that still
// has wrangler.toml's placeholder id (but for `--dry-run`, which needs none), offline and before
// any login. Secrets set with `wrangler secret put` are not seen here: any value of them is
// accepted.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { flagValues } from './cli-flags.mjs'
import { configPathOf, preflight } from './settings-check.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const flags = process.argv.slice(2)
const environment = flagValues(flags, '--env')[0] ?? ''

const problems = await preflight({
  configPath: configPathOf(flagValues(flags, '--config')[0] ?? flagValues(flags, '-c')[0]),
  environment,
  varFlags: flagValues(flags, '--var'),
  deploy: !flags.includes('--dry-run'),
})
if (problems.length > 0) {
  for (const problem of problems) console.error(problem)
  const which = environment === '' ? 'production' : environment
  console.error(`Nothing was started or deployed (${which}): change the setting and deploy again.`)
  process.exit(1)
}

const environmentFlag = flagValues(flags, '--env').length === 0 ? ['--env='] : []
const child = spawn('wrangler', ['deploy', ...environmentFlag, ...flags], {
  cwd: root,
  stdio: 'inherit',
  // The build hook (scripts/wrangler-build.mjs) need not check again what was checked here.
  env: { ...process.env, EXPORT_SERVICE_CHECKED: 'true' },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)))
