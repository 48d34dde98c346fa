#!/usr/bin/env node
// Makes sure the browser tests have a Chromium: Debian's, at /usr/bin/chromium (or the one
// CHROMIUM_PATH names). When it is missing, installs it with apt-get if this is Debian and we
// are root (as in CI); otherwise fails saying how to install it. Nothing downloads a browser
// build of its own: playwright-core drives the system's. Prints the path on success.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/** The Chromium executable to drive; throws with instructions when there is none. */
export function ensureChromium() {
  const wanted = process.env.CHROMIUM_PATH || DEBIAN_CHROMIUM
  if (existsSync(wanted)) return wanted
  if (process.env.CHROMIUM_PATH) {
    throw new Error(`CHROMIUM_PATH is ${wanted}, which does not exist.`)
  }
  const isRoot = process.getuid?.() === 0
  if (isRoot && existsSync('/etc/debian_version')) {
    console.error('Chromium is missing; installing it with apt-get (about 20 s)...')
    // apt's output goes to stderr: stdout carries only the path, for the caller to read.
    execFileSync('apt-get', ['update'], { stdio: ['ignore', 2, 2] })
    execFileSync('apt-get', ['install', '-y', 'chromium'], {
      stdio: ['ignore', 2, 2],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM
  }
  throw new Error(
    [
      `The browser tests need Chromium at ${DEBIAN_CHROMIUM}, and it is missing.`,
      'On Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y chromium',
      'Elsewhere: set CHROMIUM_PATH to a Chromium or Chrome executable.',
    ].join('\n'),
  )
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureChromium())
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}
