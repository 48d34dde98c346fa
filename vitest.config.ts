import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
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
