/** What the bench reads from wrangler.toml: the compatibility date and production's `[vars]`. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export function compatibilityDate(root) {
  return /compatibility_date\s*=\s*"([^"]+)"/.exec(
    readFileSync(join(root, 'wrangler.toml'), 'utf8'),
  )[1]
}

/** The `[vars]` of wrangler.toml's top-level (production) environment, as strings. */
export function deployedVars(root) {
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8')
  const topLevel = toml.split(/^\[env\./m)[0]
  const vars = topLevel.split(/^\[vars\]$/m)[1]?.split(/^\[/m)[0] ?? ''
  return Object.fromEntries([...vars.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]))
}
