import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
// Wrangler's config reader says "Using secrets defined in .dev.vars" once per test file when
// `npm start` has created that file; its warnings and errors still print.
process.env.WRANGLER_LOG ??= 'warn'
// The project's .env holds wrangler's own switches, not the Worker's settings: without .dev.vars
// (a fresh clone) wrangler would hand them to the Worker as vars.
process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV ??= 'false'

/**
 * Test files run at once in the `workers` and `e2e` projects, which run together. Vitest's default
 * is a core less than the machine has, one on 2 cores: every file in turn, though most of a file's
 * time is waiting (workerd starting, `npm start` starting, a timeout the service waits out), and on
 * a machine other jobs keep busy a run with more processes gets more of it.
 */
const FILES_AT_ONCE = 3

export default defineConfig({
  test: {
    // The service logs a JSON line per request (src/observability); tests read them through
    // spies, and printed they would bury the report.
    onConsoleLog: (log) => !log.startsWith('{"event":'),
    // Per project, files done of its total and an estimate of the time left, as the run goes;
    // the default reporter's summary stays the last lines.
    reporters: ['default', './scripts/test-progress-reporter.mjs'],
    projects: [
      {
        // The Worker itself, in workerd, through its fetch handler and bindings.
        plugins: [
          cloudflareTest({
            // workerd's own log of every exception a Durable Object or entrypoint method throws
            // back to its caller: fault-injection tests provoke dozens, and they would print as
            // stack traces among passing tests. What a test sees of them is in its assertions.
            verbose: false,
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { PUBLISH_TOKEN: 'test-publish-token' },
              // The Worker's tests do not build the try-it page: the asset server serves its
              // source folder, whose index.html and _headers are what the build copies (the
              // page's own tests check the built bundle, web/try-it/test/e2e/page-assets.test.ts).
              assets: { directory: './web/try-it/src/browser', binding: 'ASSETS' },
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/**/*.node.test.ts'],
          maxWorkers: FILES_AT_ONCE,
          // A guard against a hang, not a speed bound: a test that takes a second on a quiet
          // machine may take twenty on a busy one.
          testTimeout: 60_000,
        },
      },
      {
        // End to end in Node: the service started as `npm start` starts it, called over HTTP.
        // Also the other tests that need Node (`*.node.test.ts`: a docs check that runs a tool).
        // Each file starts its own on a free port with fresh state, or uses the one that the
        // global setup starts for the files that need it with no settings of their own, so files
        // run side by side, beside the `workers` files (the same number at once: one group).
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/**/*.node.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/shared-service-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: FILES_AT_ONCE,
        },
      },
      // The try-it page, a package of its own with its own tests.
      'web/try-it/vitest.config.ts',
    ],
  },
})
