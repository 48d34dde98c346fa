/**
 * Publication ID arithmetic, pure. IDs are 100000-999999: six digits without a leading zero (a
 * leading zero is easily lost when a user retypes the ID). Tests shrink the space to its first
 * `size` IDs through the `ID_SPACE_SIZE` var.
 *
 * The space is sharded by residue: shard k of N owns the IDs whose offset from `FIRST_ID` is
 * congruent to k modulo N, so anyone can tell an ID's shard without asking. Inside a shard an ID
 * is a slot: `offset = shard + slot * N`.
 */

/** The smallest publication ID. */
export const FIRST_ID = 100_000
/** IDs from 100000 to 999999. */
export const FULL_ID_SPACE_SIZE = 900_000
/**
 * Allocator shards. Stable across versions: changing it moves IDs to other shards, whose records
 * do not know them, and would break uniqueness for IDs still live or quarantined.
 */
export const ID_SHARD_COUNT = 16

/** The IDs in use by this deployment and how they are split into shards. */
export interface IdSpace {
  /** Number of IDs, from `FIRST_ID` on. */
  size: number
  /** Number of shards (fewer than `ID_SHARD_COUNT` only for a tiny test space). */
  shards: number
}

/** The ID space of `size` IDs. */
export function idSpace(size: number): IdSpace {
  if (!Number.isSafeInteger(size) || size < 1 || size > FULL_ID_SPACE_SIZE) {
    throw new RangeError(`ID space size must be 1-${FULL_ID_SPACE_SIZE}, got ${size}`)
  }
  return { size, shards: Math.min(ID_SHARD_COUNT, size) }
}

/** Number of slots (IDs) shard `shard` owns. */
export function shardSize(space: IdSpace, shard: number): number {
  return Math.floor((space.size - 1 - shard) / space.shards) + 1
}

/** The ID in slot `slot` of shard `shard`. */
export function idAt(space: IdSpace, shard: number, slot: number): number {
  return FIRST_ID + shard + slot * space.shards
}

/** Where an ID lives, or null when it is outside the space (so it was never issued). */
export function locateId(space: IdSpace, id: number): { shard: number; slot: number } | null {
  const offset = id - FIRST_ID
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= space.size) return null
  return { shard: offset % space.shards, slot: Math.floor(offset / space.shards) }
}

/**
 * The Durable Object name of a shard; stable across versions, like the shard count. A test
 * space gets objects of its own, so its records never mix with the full space's.
 */
export function shardName(space: IdSpace, shard: number): string {
  const name = `id-shard-${shard}-of-${space.shards}`
  return space.size === FULL_ID_SPACE_SIZE ? name : `${name}-in-${space.size}`
}

/** A uniformly random whole number in [0, n), from the platform's CSPRNG, without modulo bias. */
export function randomBelow(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`bad bound ${n}`)
  const limit = 2 ** 32 - (2 ** 32 % n)
  const word = new Uint32Array(1)
  for (;;) {
    crypto.getRandomValues(word)
    if (word[0]! < limit) return word[0]! % n
  }
}
