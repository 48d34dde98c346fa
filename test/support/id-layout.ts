/**
 * The ID space as docs/publishing.md lays it out: which shard owns an ID, and which Durable Object
 * is that shard (names and count stable across versions, since a shard's table is the only record
 * of its IDs). Tests that open a shard, fill its table or look for an ID's shard state the layout
 * rather than borrow the allocator's arithmetic, so a change to it fails them until the docs (and
 * this file) say the same.
 */
import { FULL_ID_SPACE_SIZE } from './documented-limits'

/** docs/publishing.md: IDs run from `100000`. */
const FIRST_ID = 100_000
/** docs/publishing.md#sharding: the allocator is 16 Durable Objects. */
const SHARD_COUNT = 16

/** The first `size` IDs (`ID_SPACE_SIZE`) and the shards they are split into. */
export interface IdSpace {
  size: number
  shards: number
}

/** docs/publishing.md#configuration: a space of N IDs has `min(16, N)` shards. */
export function idSpace(size: number = FULL_ID_SPACE_SIZE): IdSpace {
  return { size, shards: Math.min(SHARD_COUNT, size) }
}

/** docs/publishing.md#sharding: shard k owns the IDs with `(id - 100000) % shards == k`. */
export function shardOfId(space: IdSpace, id: number | string): number {
  return (Number(id) - FIRST_ID) % space.shards
}

/** docs/publishing.md#sharding: slot s of shard k is its s-th ID, `100000 + k + s * shards`. */
export function idAt(space: IdSpace, shard: number, slot: number): number {
  return FIRST_ID + shard + slot * space.shards
}

/** The number of IDs (slots) shard k owns: 56,250 each in the full space. */
export function shardSize(space: IdSpace, shard: number): number {
  return Math.ceil((space.size - shard) / space.shards)
}

/**
 * docs/publishing.md: shard k is the Durable Object `id-shard-k-of-16`; a smaller space's are
 * objects of their own, `id-shard-k-of-N-in-SIZE`.
 */
export function shardName(space: IdSpace, shard: number): string {
  const name = `id-shard-${shard}-of-${space.shards}`
  return space.size === FULL_ID_SPACE_SIZE ? name : `${name}-in-${space.size}`
}
