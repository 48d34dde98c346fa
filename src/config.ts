/// <reference path="../worker-configuration.d.ts" />

/**
 * Bindings and vars of the Worker. Everything `wrangler.toml` declares (and the secrets listed
 * in `.dev.vars.example`) is generated into `worker-configuration.d.ts` by `npm run types`;
 * `npm test` fails while that file is stale. What wrangler.toml leaves out on purpose is
 * declared below, optional.
 */
export interface Env extends Omit<Cloudflare.Env, 'METRICS'> {
  /** Analytics Engine dataset (src/observability); without it nothing is recorded, all works. */
  METRICS?: AnalyticsEngineDataset
}

declare global {
  namespace Cloudflare {
    interface Env {
      /** Secret, set only while rotating the editor token: accepted beside `PUBLISH_TOKEN`. */
      PUBLISH_TOKEN_NEXT?: string
      /** Secret: the key of the client hash in the request log (src/observability/client-hash.ts). */
      LOG_CLIENT_KEY?: string
      /** Test-only knob: the size of the ID space (see docs/storage.md). Never set in production. */
      ID_SPACE_SIZE?: string
      /** Development and tests only: KV lags this many seconds (src/storage/simulated-kv-lag.ts). */
      SIMULATED_KV_LAG_SECONDS?: string
    }
  }
}

export const DEFAULT_EXPORT_TTL_SECONDS = 600

/** Whole seconds an export stays retrievable after publication (docs/api.md#lifetime-and-ids). */
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

/**
 * Longer than KV takes to reach every location (up to about a minute, plus the 60 s a location
 * caches a miss): until then a far location reads the export from the allocator's copy.
 */
export const DEFAULT_PUBLISH_GRACE_SECONDS = 120

/**
 * Whole seconds the allocator shard keeps its copy of a new export, never beyond the lifetime;
 * 0 keeps none (a location KV has not reached then answers `503 not_ready`).
 */
export function publishGraceSeconds(env: Env): number {
  const grace = wholeNumber(
    env.PUBLISH_GRACE_SECONDS,
    DEFAULT_PUBLISH_GRACE_SECONDS,
    'PUBLISH_GRACE_SECONDS',
  )
  return Math.min(grace, exportTtlSeconds(env))
}

/** What publishing accepts: display models only (the default), or any `{"content": {...}}`. */
export type ExportPolicy = 'display-models' | 'off'

export const DEFAULT_EXPORT_POLICY: ExportPolicy = 'display-models'

/** The `EXPORT_POLICY` setting; an unknown value fails every publish rather than checking less. */
export function exportPolicy(env: Env): ExportPolicy {
  const raw = env.EXPORT_POLICY
  if (raw === undefined || raw === '') return DEFAULT_EXPORT_POLICY
  if (raw === 'display-models' || raw === 'off') return raw
  throw new Error(`EXPORT_POLICY must be "display-models" or "off", got "${raw}"`)
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

/** Parses a whole number, zero included, from a var, or returns the default when it is unset. */
export function wholeNumber(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number (0 or more), got "${raw}"`)
  }
  return value
}
