/**
 * How full the publication ID space is: what `GET /editor-api/status` answers, summed from one
 * count per allocator shard. Pure: the shards count (id-allocator.ts), this adds up. An ID is
 * live until its export expires, then in quarantine until it may be issued again, then free.
 */

/** One shard's IDs at one moment, as the shard counts them. */
export interface ShardCount {
  /** IDs the shard owns. */
  size: number
  live: number
  quarantined: number
  /** The earliest moment one of its IDs becomes free again (ms since the epoch), if any is taken. */
  nextFreeAt: number | null
}

/** One shard, as the status endpoint shows it. */
export interface ShardStatus {
  shard: number
  size: number
  live: number
  quarantined: number
  free: number
  /** When a full shard frees its first ID again (ISO 8601); null while it has free IDs. */
  freesAt: string | null
}

/** The whole ID space, as the status endpoint shows it. */
export interface IdSpaceStatus {
  /** When the shards were counted (ISO 8601). */
  checkedAt: string
  lifetimeSeconds: number
  quarantineSeconds: number
  /** Publishes per second the space sustains: size / (lifetime + quarantine). */
  sustainedPublishesPerSecond: number
  total: Omit<ShardStatus, 'shard'> & {
    /** Shards without a free ID; a publish skips them, so this only costs capacity. */
    fullShards: number
  }
  shards: ShardStatus[]
}

/** Adds up the shards' counts (in shard order) into the status. */
export function summarizeIdSpace(
  counts: readonly ShardCount[],
  settings: { lifetimeSeconds: number; quarantineSeconds: number; now: number },
): IdSpaceStatus {
  const shards = counts.map((count, shard) => shardStatus(shard, count))
  const full = shards.filter((s) => s.free === 0)
  const sum = (field: 'size' | 'live' | 'quarantined' | 'free') =>
    shards.reduce((total, s) => total + s[field], 0)
  const size = sum('size')
  return {
    checkedAt: new Date(settings.now).toISOString(),
    lifetimeSeconds: settings.lifetimeSeconds,
    quarantineSeconds: settings.quarantineSeconds,
    sustainedPublishesPerSecond: size / (settings.lifetimeSeconds + settings.quarantineSeconds),
    total: {
      size,
      live: sum('live'),
      quarantined: sum('quarantined'),
      free: sum('free'),
      fullShards: full.length,
      // ISO 8601 strings of one format sort as their times do.
      freesAt: full.map((s) => s.freesAt!).sort()[0] ?? null,
    },
    shards,
  }
}

function shardStatus(shard: number, count: ShardCount): ShardStatus {
  const free = count.size - count.live - count.quarantined
  const freesAt =
    free === 0 && count.nextFreeAt !== null ? new Date(count.nextFreeAt).toISOString() : null
  return {
    shard,
    size: count.size,
    live: count.live,
    quarantined: count.quarantined,
    free,
    freesAt,
  }
}
