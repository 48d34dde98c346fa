/**
 * The storage room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): an export's KV key, the largest value, the write's and the
 * chunked read's timeouts, which the room's own code uses and the tests and the bench reach. Why
 * a second face: docs/architecture.md#the-layering-rules.
 */
export { exportKey, KV_MAX_VALUE_BYTES, KV_WRITE_TIMEOUT_MS } from './export-store'
export { READ_STALL_TIMEOUT_MS } from './large-chunks'
