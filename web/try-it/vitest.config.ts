import { defineConfig } from 'vitest/config'

/**
 * The try-it page's tests, a project of the repository's `npm test` (and `npm test` here): the
 * model readers in Node (test/model/), and the built page in Chromium against the service started
 * as `npm start` starts it, whose wrangler `[build]` builds the page first (test/e2e/).
 */
export default defineConfig({
  test: {
    name: 'try-it',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One browser file at a time: their timings are the point, and a second would disturb them.
    fileParallelism: false,
    // After the Worker's own tests, so that they share no cores with the timed browser tests.
    sequence: { groupOrder: 1 },
  },
})
