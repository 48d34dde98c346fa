/**
 * The rate-limit room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the client key and its prefix, the limit and miss rules, the
 * window arithmetic, the write-behind's plan and the limiter's storage key prefix
 * (CLIENT_RECORD_PREFIX), which the room's own code uses and the tests and the bench reach. Why a
 * second face: docs/architecture.md#the-layering-rules.
 */
export { clientKey, prefixKey, UNKNOWN_CLIENT } from './client-key'
export { parseExemptNetworks } from './exempt-networks'
export {
  admit,
  clientForgetAt,
  clientMiss,
  type ClientRecord,
  type LimitPolicy,
  networkMiss,
} from './limits'
export { NetworkGate } from './network-gate'
export {
  countMiss,
  DEFAULT_MISS_SETTINGS,
  missesForgetAt,
  type MissSettings,
  type MissState,
  penaltyEnd,
} from './misses'
export { CLIENT_RECORD_PREFIX } from './rate-limiter'
export { parseWindowRule } from './rules'
export {
  decide,
  nearestExhaustion,
  rateLimitHeaders,
  type RateVerdict,
  refusalAsOf,
  type WindowRule,
  type WindowState,
} from './windows'
export {
  alarmStep,
  nextAlarm,
  planChange,
  type RecordStorage,
  UNSTORED,
  writtenAt,
} from './write-behind'
