/**
 * The rate-limit room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). Each name is here because a test or the bench cannot reach it
 * through the face (`index.ts`) or through the Worker: the line above each export says why. The
 * settings are read through the face (`rateLimitRules`, `missSettings`, `exemptNetworks`), and
 * what a caller sees (headers, 429s, misses, exemptions) through HTTP. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
// Every text form of `CF-Connecting-IP` at once, and the keys a test opens objects by.
export { clientAddress } from './client-key'
// One isolate's burst room at one instant, which the Worker's isolates cannot be made to stage.
export { NetworkGate } from './network-gate'
// The object's decisions on an explicit clock: penalties over days no test waits out via HTTP.
export { admit, clientForgetAt, clientMiss, networkMiss } from './limits'
// The window arithmetic on an explicit clock; the bench's limiters run it without an object.
export { decide } from './windows'
// The shapes the bench's limiters take and answer, beside `decide`.
export type { RateVerdict, WindowRule, WindowState } from './windows'
// The bench's objects take the default miss limit without the Worker's settings.
export { DEFAULT_MISS_SETTINGS } from './misses'
// The bench reads its objects' windows from its own query strings, not from settings.
export { parseWindowRule } from './rules'
// The write-behind's plan (which request writes, when the alarm runs) over hours of requests.
export { alarmStep, nextAlarm, planChange, UNSTORED } from './write-behind'
// The key of a client's record in its object's storage, which a test reads to see what it wrote.
export { CLIENT_RECORD_PREFIX } from './rate-limiter'
