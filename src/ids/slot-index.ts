/**
 * An in-memory index of a shard's taken slots that finds the r-th free slot in time independent
 * of how full the shard is: one flag per slot, and a count of taken slots per bucket of
 * `BUCKET_SLOTS`. Finding the r-th free slot walks the bucket counts (about 220 in a full-size
 * shard), then the flags of one bucket (at most 256). Pure: the allocator keeps it in step with
 * its SQL table, which stays the source of truth.
 */

/** Slots per bucket: about the square root of a full-size shard (56,250 slots). */
export const BUCKET_SLOTS = 256

/** Taken and free slots 0..size-1 of one shard. */
export class SlotIndex {
  private readonly taken: Uint8Array
  private readonly takenPerBucket: Uint16Array
  private takenCount = 0

  constructor(readonly size: number) {
    this.taken = new Uint8Array(size)
    this.takenPerBucket = new Uint16Array(Math.ceil(size / BUCKET_SLOTS))
  }

  /** Number of free slots. */
  get freeCount(): number {
    return this.size - this.takenCount
  }

  /** Marks a slot taken; slots outside the index are ignored. */
  take(slot: number): void {
    if (slot < 0 || slot >= this.size || this.taken[slot] === 1) return
    this.taken[slot] = 1
    this.takenPerBucket[Math.floor(slot / BUCKET_SLOTS)]!++
    this.takenCount++
  }

  /** Marks a slot free again; slots outside the index are ignored. */
  release(slot: number): void {
    if (slot < 0 || slot >= this.size || this.taken[slot] === 0) return
    this.taken[slot] = 0
    this.takenPerBucket[Math.floor(slot / BUCKET_SLOTS)]!--
    this.takenCount--
  }

  /** The free slot of rank `rank` (0-based, in slot order); `rank` must be below `freeCount`. */
  nthFree(rank: number): number {
    if (!(rank >= 0 && rank < this.freeCount)) throw new RangeError(`no free slot of rank ${rank}`)
    let left = rank
    let bucket = 0
    for (; ; bucket++) {
      const freeHere = this.bucketSize(bucket) - this.takenPerBucket[bucket]!
      if (left < freeHere) break
      left -= freeHere
    }
    const end = bucket * BUCKET_SLOTS + this.bucketSize(bucket)
    for (let slot = bucket * BUCKET_SLOTS; slot < end; slot++) {
      if (this.taken[slot] === 1) continue
      if (left === 0) return slot
      left--
    }
    throw new Error(`bucket ${bucket} has fewer free slots than counted`)
  }

  private bucketSize(bucket: number): number {
    return Math.min(BUCKET_SLOTS, this.size - bucket * BUCKET_SLOTS)
  }
}
