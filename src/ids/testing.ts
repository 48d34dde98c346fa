/**
 * The ids room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). The names here are what a test cannot reach through the face
 * or through the Worker, each with its reason. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
// Where an ID lives: the shard a test opens to read or damage, and the mapping over every ID.
export { idAt, idSpace, locateId, shardName, shardSize } from './id-space'
// A shard's free-slot index across its buckets' edges, hundreds of publishes away through HTTP.
export { BUCKET_SLOTS, SlotIndex } from './slot-index'
