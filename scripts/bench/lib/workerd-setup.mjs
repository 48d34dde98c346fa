/**
 * What every workerd the bench starts shares: how a Worker is bundled, which log lines it prints,
 * and where Miniflare keeps its storage.
 */
import { existsSync } from 'node:fs'

/** A tmpfs, for Miniflare's storage (`inMemoryStorage`). */
export const IN_MEMORY_TMP = '/dev/shm'

/** esbuild options of a Worker bundle, as wrangler would build it for workerd. */
export const WORKER_BUILD_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['workerd', 'worker', 'browser'],
  target: 'es2022',
  external: ['cloudflare:*'],
  logLevel: 'warning',
}

/**
 * Miniflare's `handleStructuredLogs`: the service logs a line per request (src/observability);
 * its cost stays in the figures, its text stays out of the report. Warnings and errors are
 * still printed.
 */
export function printWarningsAndErrors({ level, message }) {
  if (level === 'warn' || level === 'error') console.error(message)
}

/**
 * `create()`, with Miniflare's storage (the Durable Objects' SQLite files, KV) in memory where the
 * machine has a tmpfs: Miniflare keeps it under the system's temp folder, and on this machine's
 * disk, shared with other tenants, each new SQLite database (an object's first request) took
 * 15-25 ms, a cost of the machine that no production object pays and that hid the request path
 * under it. Miniflare removes the folder when disposed.
 */
export function inMemoryStorage(create) {
  const before = process.env.TMPDIR
  if (existsSync(IN_MEMORY_TMP)) process.env.TMPDIR = IN_MEMORY_TMP
  try {
    return create()
  } finally {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
  }
}
