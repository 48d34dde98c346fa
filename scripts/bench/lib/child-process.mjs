/** A section's Node half in a fresh Node process: it gets its config as JSON, prints JSON back. */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Runs `script` (a path or file URL) with `nodeFlags` and parses the JSON it prints. */
export function nodeJson(root, script, nodeFlags, config) {
  const file = script instanceof URL ? fileURLToPath(script) : script
  const out = execFileSync(process.execPath, [...nodeFlags, file, JSON.stringify(config)], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return JSON.parse(out.toString())
}
