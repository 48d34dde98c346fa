/**
 * The shapes the limiter's pure functions take and return, read off the functions themselves, so
 * that the rate-limit room's testing face names only what a test calls.
 */
import type { missSettings } from '../../src/rate-limit'
import type { admit, networkMiss, planChange } from '../../src/rate-limit/testing'

/** The miss limit's settings. */
export type MissSettings = ReturnType<typeof missSettings>
/** The limits an object applies: both windows and the miss limit. */
export type LimitPolicy = Parameters<typeof admit>[1]
/** What is kept of one client. */
export type ClientRecord = NonNullable<Parameters<typeof admit>[0]>
/** One party's misses. */
export type MissState = NonNullable<ReturnType<typeof networkMiss>>
/** Where a record stands in storage, for the write-behind's plan. */
export type RecordStorage = Parameters<typeof planChange>[0]
