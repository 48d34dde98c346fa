/**
 * The settings check `npm start` and `npm run deploy` run before anything starts: the vars as
 * wrangler would hand them to the Worker, read by the product's own parsers (src/settings/, the
 * one list of them), bundled for Node (scripts/lib/import-bundled.mjs).
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importBundled } from './lib/import-bundled.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * The vars the Worker would get: `wrangler.toml`'s `[vars]` of `environment` ('' for the top
 * level), for `wrangler dev` with `.dev.vars` over them, then `given` (`--var`) over all.
 * Read by wrangler itself, so its rules of precedence hold.
 */
export async function resolvedVars({ environment = '', dev = false, given = {} } = {}) {
  const { unstable_readConfig, unstable_getVarsForDev } = await import('wrangler')
  const config = unstable_readConfig({
    config: join(root, 'wrangler.toml'),
    env: environment === '' ? undefined : environment,
  })
  const vars = { ...config.vars }
  if (dev) {
    const forDev = unstable_getVarsForDev(config.configPath, undefined, {}, environment, true)
    for (const [name, binding] of Object.entries(forDev)) vars[name] = binding.value ?? binding
  }
  return { ...vars, ...given }
}

/** What the product's parsers say of `vars`: one message per setting that cannot work. */
export async function settingProblems(vars) {
  const settings = await importBundled(join(root, 'src/settings/index.ts'))
  return settings.settingProblems(stringsOnly(vars))
}

/** Vars as text, as the Worker reads them: wrangler passes a JSON var as an object. */
function stringsOnly(vars) {
  return Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  )
}

/** `--var NAME:VALUE ...` (wrangler's form) as an object; a later value wins. */
export function varsOfFlags(values) {
  return Object.fromEntries(
    values.map((setting) => {
      const colon = setting.indexOf(':')
      return colon < 0 ? [setting, ''] : [setting.slice(0, colon), setting.slice(colon + 1)]
    }),
  )
}
