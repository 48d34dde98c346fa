/**
 * What one isolate has learnt of full shards: each shard that answered "full", until the moment
 * it said it may free an ID (its earliest quarantine end). A publish asks the shards not known
 * full first, so once a shard is known full it no longer costs every publish an extra call.
 *
 * Only an order, never a skip: the shards known full are still asked, last, so a publish is
 * refused only when every shard answered full. The knowledge is per isolate and may be stale
 * (another isolate released an ID there): such a shard's free ID is then drawn once the others
 * are full or its time has come, never lost.
 */

/** Shards known full, by Durable Object name, with when each may have a free ID again. */
export class FullShards {
  private readonly until = new Map<string, number>()

  /** `shards` (in their given order) with those known full at `now` moved to the end. */
  order<T>(shards: readonly T[], nameOf: (shard: T) => string, now: number): T[] {
    const known = (shard: T) => (this.until.get(nameOf(shard)) ?? 0) > now
    return [...shards.filter((s) => !known(s)), ...shards.filter(known)]
  }

  /** The shard `name` answered full at `now` and may free an ID `retryAfterSeconds` later. */
  full(name: string, now: number, retryAfterSeconds: number): void {
    this.until.set(name, now + retryAfterSeconds * 1000)
  }

  /** The shard `name` has a free ID (it issued one, or one was released there). */
  free(name: string): void {
    this.until.delete(name)
  }
}
