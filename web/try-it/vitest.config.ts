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
    // What the page shows may come late on a busy machine: a poll waits up to 30 s (a guard
    // against a hang; vitest's default is 1 s). How fast the page answers is the bench's.
    expect: { poll: { timeout: 30_000 } },
    // One browser file at a time: each starts a service and a Chromium of its own.
    fileParallelism: false,
    // A group of its own, run apart from the other projects (vitest runs it first), so that the
    // browser tests share no cores with the Worker's tests.
    sequence: { groupOrder: 1 },
  },
})
