/**
 * The rate-limit room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). Each name is here because a test or the bench cannot reach it
 * through the face (`index.ts`) or through the Worker: the line above each export says why. The
 * settings are read through the face (`rateLimitRules`, `missSettings`, `exemptNetworks`), and
 * what a caller sees (headers, 429s, misses, exemptions) through HTTP. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
// The one parse of `CF-Connecting-IP`: its forms are too many to walk one request each, and a
// test opens a client's or a network's object by the keys it yields.
export { clientAddress } from './client-key'
// An isolate's burst room, driven with an explicit clock: a burst inside one isolate at one
// instant cannot be staged through the Worker, whose isolates a test does not choose.
export { NetworkGate } from './network-gate'
// The object's decisions with an explicit clock (windows, misses, penalties doubling over days),
// which no test waits out through the Worker.
export { admit, clientForgetAt, clientMiss, networkMiss } from './limits'
// The window arithmetic, same clock, which the windows' edges are checked on and the bench's
// limiters run without an object.
export { decide, type RateVerdict, type WindowRule, type WindowState } from './windows'
// The bench's objects take the default miss limit without the Worker's settings.
export { DEFAULT_MISS_SETTINGS } from './misses'
// The bench reads its objects' windows from its own query strings, not from settings.
export { parseWindowRule } from './rules'
// The write-behind's plan: which request writes and when the alarm runs, over hours of requests.
export { alarmStep, nextAlarm, planChange, UNSTORED } from './write-behind'
// The storage key of a client's record, which a test reads inside the object to see what it wrote.
export { CLIENT_RECORD_PREFIX } from './rate-limiter'
