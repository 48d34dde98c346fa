import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'

/** Flags that keep Chromium offline, quiet and working as root in a container (TOOLCHAIN.md). */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebGL in software (SwiftShader through ANGLE), for the try-it page's model preview.
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
]

/**
 * Launches the system's Chromium, headless, with a fresh profile. scripts/ensure-chromium.mjs
 * installs it first when it is missing and that is possible, or fails saying how.
 */
export function launchChromium(): Promise<Browser> {
  let executablePath: string
  try {
    // By its path, so that the try-it page's tests find it when run from web/try-it/ too.
    const ensure = fileURLToPath(new URL('../../scripts/ensure-chromium.mjs', import.meta.url))
    executablePath = execFileSync(process.execPath, [ensure], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim()
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error)
    throw new Error(stderr.trim())
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS })
}
