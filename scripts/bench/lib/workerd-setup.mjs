/** What every workerd the bench starts shares: how a Worker is bundled, and which log lines it prints. */

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
