/**
 * The ids room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). The names here are what a test cannot reach through the face
 * or through the Worker, each with its reason. Why a second face:
 * docs/architecture.md#the-layering-rules.
 */
// Where an ID lives: a test opens the shard that owns an ID, to read or damage what it holds,
// and checks the mapping on every ID of the space, which publishing one at a time cannot.
export { idAt, idSpace, locateId, shardName, shardSize } from './id-space'
// A shard's index of free slots, driven across its buckets' edges, which a test would need
// hundreds of publishes to reach through the allocator.
export { BUCKET_SLOTS, SlotIndex } from './slot-index'
