/**
 * The settings check `npm start`, `npm run deploy` and the build hook of plain `wrangler dev`
 * run before anything starts: the configuration file as wrangler reads it, every setting in every
 * place it can be given (`[vars]`, `.dev.vars`, `--var`) by the product's own parsers
 * (src/settings/, the one list of them, bundled for Node by scripts/lib/import-bundled.mjs), and
 * what a deploy cannot work without.
 */
import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { importBundled } from './lib/import-bundled.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
export const DEFAULT_CONFIG = join(root, 'wrangler.toml')

/** A configuration file wrangler cannot read, said in a few words (no stack, no file dump). */
export class ConfigProblem extends Error {}

/**
 * Everything that would stop the Worker or the deploy, as messages, in the order a person fixes
 * them: how `--var` is written, the configuration file, `.dev.vars` (`dev` only), every setting's
 * value, and for a real deploy (`deploy`) the namespaces it needs. Empty when all can work.
 */
export async function preflight({
  configPath = DEFAULT_CONFIG,
  environment = '',
  varFlags = [],
  dev = false,
  deploy = false,
}) {
  const spelling = await varFlagProblems(varFlags)
  if (spelling.length > 0) return spelling
  try {
    const given = varsOfFlags(varFlags)
    const problems = dev ? await devVarsProblems({ configPath, environment }) : []
    problems.push(
      ...(await settingProblems(await resolvedVars({ configPath, environment, dev, given }))),
    )
    if (deploy) problems.push(...(await placeholderProblems({ configPath, environment })))
    return problems
  } catch (error) {
    if (error instanceof ConfigProblem) return [error.message]
    throw error
  }
}

/** The configuration file a command line names (`--config`/`-c`), else the project's. */
export function configPathOf(configFlag) {
  if (configFlag === undefined) return DEFAULT_CONFIG
  return isAbsolute(configFlag) ? configFlag : resolve(process.cwd(), configFlag)
}

/**
 * `configPath` read by wrangler itself for `environment` ('' for the top level), so its rules
 * hold. A file wrangler refuses throws a ConfigProblem: for a TOML syntax error one line with the
 * file, the line and column, and what the parser expected.
 */
export async function readConfig({ configPath = DEFAULT_CONFIG, environment = '' } = {}) {
  const { unstable_readConfig } = await import('wrangler')
  if (!existsSync(configPath)) throw new ConfigProblem(`${shown(configPath)}: no such file`)
  try {
    return unstable_readConfig({
      config: configPath,
      env: environment === '' ? undefined : environment,
    })
  } catch (error) {
    const where = error?.location
    if (where?.line !== undefined) {
      const what = String(error.text ?? error.message).replace(/^Invalid TOML document: /, '')
      throw new ConfigProblem(
        `${shown(where.file ?? configPath)}:${where.line}:${where.column + 1}: not valid TOML, ` +
          `${what}: ${String(where.lineText).trim()}`,
      )
    }
    // Wrangler's own refusals (an unknown --env, a field of the wrong type) are messages for a
    // person already; only their stack is dropped.
    if (error instanceof Error && 'telemetryMessage' in error) {
      throw new ConfigProblem(error.message.trim())
    }
    throw error
  }
}

/**
 * The vars the Worker would get: the configuration's `[vars]` of `environment`, for
 * `wrangler dev` with `.dev.vars` over them, then `given` (`--var`) over all.
 */
export async function resolvedVars({
  configPath = DEFAULT_CONFIG,
  environment = '',
  dev = false,
  given = {},
} = {}) {
  const config = await readConfig({ configPath, environment })
  const vars = { ...config.vars }
  if (dev) Object.assign(vars, await devVars(config, environment))
  return { ...vars, ...given }
}

/** What `.dev.vars` (or the `.env` wrangler falls back to) gives `wrangler dev`. */
export async function devFileVars({ configPath = DEFAULT_CONFIG, environment = '' } = {}) {
  return devVars(await readConfig({ configPath, environment }), environment)
}

async function devVars(config, environment) {
  const { unstable_getVarsForDev } = await import('wrangler')
  const forDev = unstable_getVarsForDev(config.configPath, undefined, {}, environment, true)
  return Object.fromEntries(
    Object.entries(forDev).map(([name, binding]) => [name, binding.value ?? binding]),
  )
}

/** What the product's parsers say of `vars`: one message per setting that cannot work. */
export async function settingProblems(vars) {
  const settings = await productSettings()
  return settings.settingProblems(stringsOnly(vars))
}

/**
 * Names in `.dev.vars` that are no setting of the Worker: a misspelt name there is otherwise
 * passed to the Worker, which never reads it, and the default stays without a word.
 */
export async function devVarsProblems({ configPath = DEFAULT_CONFIG, environment = '' } = {}) {
  const config = await readConfig({ configPath, environment })
  const names = await knownSettings()
  const problems = []
  for (const name of Object.keys(await devVars(config, environment))) {
    if (name in config.vars || names.has(name)) continue
    const file = shown(join(dirname(config.configPath), '.dev.vars'))
    problems.push(`${file}: ${name} is no setting of the service${suggestion(name, names)}`)
  }
  return problems
}

/**
 * `--var` values as wrangler wants them, `NAME:value`, each naming a setting of the Worker.
 * Wrangler reads `--var NAME=value` as a var named `NAME=value` with no value, which the Worker
 * never asks for: the default stays, silently.
 */
export async function varFlagProblems(values) {
  const names = await knownSettings()
  const problems = []
  for (const setting of values) {
    const colon = setting.indexOf(':')
    const equals = setting.indexOf('=')
    if (equals > 0 && (colon < 0 || equals < colon)) {
      const name = setting.slice(0, equals)
      problems.push(
        `--var ${setting}: wrangler reads --var as NAME:value; write --var ${name}:${setting.slice(equals + 1)}`,
      )
    } else if (colon < 0) {
      problems.push(`--var ${setting}: no value; write --var ${setting}:value`)
    } else if (!names.has(setting.slice(0, colon))) {
      const name = setting.slice(0, colon)
      problems.push(
        `--var ${name}: no setting of the service has this name${suggestion(name, names)}`,
      )
    }
  }
  return problems
}

/** `--var NAME:value ...` (wrangler's form) as an object; a later value wins. */
export function varsOfFlags(values) {
  return Object.fromEntries(
    values.map((setting) => {
      const colon = setting.indexOf(':')
      return colon < 0 ? [setting, ''] : [setting.slice(0, colon), setting.slice(colon + 1)]
    }),
  )
}

/** An id wrangler.toml ships with: one digit repeated, which no real namespace has. */
const PLACEHOLDER_ID = /^(.)\1*$/

/**
 * KV namespaces of `environment` that still have the placeholder id of wrangler.toml, with how
 * to create the real one. Offline: a deploy with them would ask for a login first and then fail.
 */
export async function placeholderProblems({ configPath = DEFAULT_CONFIG, environment = '' } = {}) {
  const config = await readConfig({ configPath, environment })
  const envFlag = environment === '' ? '' : ` --env ${environment}`
  const table = environment === '' ? '[[kv_namespaces]]' : `[[env.${environment}.kv_namespaces]]`
  return (config.kv_namespaces ?? [])
    .filter((namespace) => PLACEHOLDER_ID.test(namespace.id ?? ''))
    .map(
      (namespace) =>
        `${shown(configPath)}: the KV namespace ${namespace.binding} has the placeholder id ` +
        `"${namespace.id}". Create the namespace once with \`npx wrangler kv namespace create ` +
        `${namespace.binding}${envFlag}\` and put the id it prints in ${table}.`,
    )
}

let settingsModule
/** src/settings/ bundled once per process: each bundling takes esbuild a moment. */
function productSettings() {
  settingsModule ??= importBundled(join(root, 'src/settings/index.ts'))
  return settingsModule
}

/** Every name the Worker reads as a setting (secrets included). */
async function knownSettings() {
  const settings = await productSettings()
  return new Set([
    ...settings.SETTING_READERS.flatMap((reader) => reader.names),
    ...settings.UNCHECKED_SETTINGS,
  ])
}

/** `. Did you mean X?` for the known name closest to `name` if one is close, else `.`. */
function suggestion(name, names) {
  let best = null
  let bestDistance = Infinity
  for (const known of names) {
    const distance = editDistance(name.toUpperCase(), known)
    if (distance < bestDistance) [best, bestDistance] = [known, distance]
  }
  return best !== null && bestDistance <= 3 ? `. Did you mean ${best}?` : '.'
}

function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]
}

/** A path as a person in the project folder would type it. */
function shown(path) {
  const relativePath = relative(process.cwd(), path)
  return relativePath.startsWith('..') ? path : relativePath
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
