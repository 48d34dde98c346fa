/**
 * Sizes and timeouts the docs promise, which tests hold the service to. A test states the rule
 * it checks rather than borrowing the service's own constant, so a change to one fails the tests
 * until the docs (and this file) say the same.
 */

/** docs/api.md#how-the-body-is-read-and-checked: an export up to 1 MiB, stored and substituted, is read whole. */
export const WHOLE_READ_MAX_BYTES = 1024 * 1024
/** docs/api.md#how-the-body-is-read-and-checked: any other is streamed 256 KiB at a time, whatever the tag. */
export const READ_CHUNK_BYTES = 256 * 1024
/** docs/api.md#errors: a KV value that stops arriving for 5 s is `503 unavailable`. */
export const READ_STALL_TIMEOUT_MS = 5000
/** docs/publishing.md: a KV write that does not answer within 10 s fails the publish. */
export const KV_WRITE_TIMEOUT_MS = 10_000
/** docs/publishing.md: a grace copy is stored in rows of 1 MiB. */
export const COPY_CHUNK_BYTES = 1024 * 1024
/** docs/publishing.md: the rest of a grace copy not stored within 10 s fails the publish. */
export const COPY_WRITE_TIMEOUT_MS = 10_000
/** docs/publishing.md: six digits, `100000`-`999999`, 900,000 IDs. */
export const FULL_ID_SPACE_SIZE = 900_000
/** docs/publishing.md: a shard counts its taken slots per bucket of 256 slots. */
export const SLOT_BUCKET_SIZE = 256
