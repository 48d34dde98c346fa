/**
 * The ids room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the grace copy's write timeout, chunk size and schema, the ID
 * space and the slot index, which the room's own code uses and the tests and the bench reach. Why
 * a second face: docs/architecture.md#the-layering-rules.
 */
export { COPY_WRITE_TIMEOUT_MS } from './allocator-client'
export { COPY_CHUNK_BYTES, GRACE_COPIES_SCHEMA } from './grace-copies'
export {
  FULL_ID_SPACE_SIZE,
  idAt,
  idSpace,
  type IdSpace,
  locateId,
  shardName,
  shardSize,
} from './id-space'
export type { IdSpaceStatus } from './id-space-status'
export { BUCKET_SLOTS, SlotIndex } from './slot-index'
