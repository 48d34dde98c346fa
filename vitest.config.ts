import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
// Wrangler's config reader says "Using secrets defined in .dev.vars" once per test file when
// `npm start` has created that file; its warnings and errors still print.
process.env.WRANGLER_LOG ??= 'warn'
// The project's .env holds wrangler's own switches, not the Worker's settings: without .dev.vars
// (a fresh clone) wrangler would hand them to the Worker as vars.
process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV ??= 'false'

export default defineConfig({
  test: {
    // The service logs a JSON line per request (src/observability); tests read them through
    // spies, and printed they would bury the report.
    onConsoleLog: (log) => !log.startsWith('{"event":'),
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
          exclude: ['test/e2e/**'],
          testTimeout: 30_000,
        },
      },
      {
        // End to end in Node: the service started as `npm start` starts it, called over HTTP.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      // The try-it page, a package of its own with its own tests.
      'web/try-it/vitest.config.ts',
    ],
  },
})
