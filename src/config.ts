/** Bindings and vars of the Worker, as declared in wrangler.toml. */
export interface Env {
  EXPORTS: KVNamespace
  /** One rate-limit Durable Object per client address (src/rate-limit). */
  RATE_LIMITER: DurableObjectNamespace<import('./rate-limit/rate-limiter').RateLimiter>
  /** The publication ID allocator, one object per shard (src/publish/id-allocator.ts). */
  ID_ALLOCATOR: DurableObjectNamespace<import('./publish/id-allocator').IdAllocator>
  EXPORT_TTL_SECONDS?: string
  ID_QUARANTINE_SECONDS?: string
  RATE_LIMIT_SHORT?: string
  RATE_LIMIT_LONG?: string
  /** Seconds a rate-limit object may hold counts in memory before writing them (1-9). */
  RATE_LIMIT_FLUSH_SECONDS?: string
  /** Secret: bearer token of the editor API. Without it the editor route does not exist. */
  PUBLISH_TOKEN?: string
  /** Test-only knob: the size of the ID space (see docs/storage.md). Never set in production. */
  ID_SPACE_SIZE?: string
}

export const DEFAULT_EXPORT_TTL_SECONDS = 600

/** Whole seconds an export stays retrievable after publication (spec 8). */
export function exportTtlSeconds(env: Env): number {
  return positiveInteger(env.EXPORT_TTL_SECONDS, DEFAULT_EXPORT_TTL_SECONDS, 'EXPORT_TTL_SECONDS')
}

export const DEFAULT_ID_QUARANTINE_SECONDS = 3600

/** Whole seconds an ID stays reserved after its export expires, so stale commands find nothing. */
export function idQuarantineSeconds(env: Env): number {
  return positiveInteger(
    env.ID_QUARANTINE_SECONDS,
    DEFAULT_ID_QUARANTINE_SECONDS,
    'ID_QUARANTINE_SECONDS',
  )
}

/**
 * workerd evicts a Durable Object after 10 s without events, and so does production once the
 * object may hibernate (an RPC-only object may, between calls): unwritten counts must reach
 * storage before that, so the flush interval stays under it, with a second to spare for a late
 * alarm.
 */
export const MAX_RATE_LIMIT_FLUSH_SECONDS = 9
export const DEFAULT_RATE_LIMIT_FLUSH_SECONDS = 9

/** Whole seconds a rate-limit object may hold admitted requests before writing them. */
export function rateLimitFlushSeconds(env: Env): number {
  const name = 'RATE_LIMIT_FLUSH_SECONDS'
  const seconds = positiveInteger(
    env.RATE_LIMIT_FLUSH_SECONDS,
    DEFAULT_RATE_LIMIT_FLUSH_SECONDS,
    name,
  )
  if (seconds > MAX_RATE_LIMIT_FLUSH_SECONDS) {
    throw new Error(
      `${name} must be at most ${MAX_RATE_LIMIT_FLUSH_SECONDS}, got "${env.RATE_LIMIT_FLUSH_SECONDS}"`,
    )
  }
  return seconds
}

/** IDs available for publishing: all 900,000 six-digit IDs unless a test shrinks the space. */
export function idSpaceSize(env: Env): number {
  return positiveInteger(env.ID_SPACE_SIZE, 900_000, 'ID_SPACE_SIZE')
}

/** Parses a positive whole number from a var, or returns the default when it is unset. */
export function positiveInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}"`)
  }
  return value
}
