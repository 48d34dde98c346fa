/**
 * What a route or middleware tells the request log that the response does not show: the ID a
 * publish issued, the size of the export served, how the rate limiter took the request. Kept on
 * the Hono context, so the code that knows a fact says it in one call and the request log stays
 * in one place (./index.ts).
 */
import type { Context } from 'hono'
import { nearestExhaustion, type RateVerdict } from '../rate-limit/windows'
import type { LimiterVerdict } from './outcomes'

/** Facts about a request, each optional. */
export interface RequestNotes {
  /**
   * The publication ID the request was about: the one a publish issued, or the one a retrieval
   * served (else the log reads it from the URL).
   */
  id?: string
  /** Bytes of the stored export. */
  exportBytes?: number
  /** Characters of the sanitized tag that was substituted. */
  tagLength?: number
  limiter?: LimiterVerdict
  /** The window that refused a 429 (the `X-RateLimit-*` window), `short` or `long`. */
  refusingWindow?: string
}

declare module 'hono' {
  interface ContextVariableMap {
    requestNotes: RequestNotes
  }
}

/** Adds facts to the request's notes. */
export function note(c: Context, facts: RequestNotes): void {
  c.set('requestNotes', { ...c.get('requestNotes'), ...facts })
}

/** The request's notes so far. */
export function notesOf(c: Context): RequestNotes {
  return c.get('requestNotes') ?? {}
}

/** Notes of the limiter's verdict; `null` is a limiter that could not answer (fail-open). */
export function limiterNotes(verdict: RateVerdict | null): RequestNotes {
  if (verdict === null) return { limiter: 'failed_open' }
  if (verdict.admitted) return { limiter: 'admitted' }
  return { limiter: 'refused', refusingWindow: nearestExhaustion(verdict.windows).name }
}
