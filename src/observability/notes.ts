/**
 * What a route or middleware tells the request log that the response does not show: which
 * endpoint the request was for, the ID it was about, the size of the export, how the rate limiter
 * took it. Kept on the Hono context, so the code that knows a fact says it in one call and the
 * log itself knows no route, no limiter and no ID rule (./index.ts).
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { LimiterVerdict, MissPenalty, RequestEvent } from './outcomes'

/** Facts about a request, each optional. */
export interface RequestNotes {
  /** The endpoint the request was for; `other` when no route noted one. */
  event?: RequestEvent
  /**
   * The publication ID the request was about: the one a publish issued, or the well-formed one
   * a retrieval named.
   */
  id?: string
  /** Bytes of the stored export. */
  exportBytes?: number
  /** Characters of the sanitized tag that was substituted. */
  tagLength?: number
  limiter?: LimiterVerdict
  /** The window that refused a 429 (the window the rate-limit headers describe). */
  refusingWindow?: string
  /** On a 429 for misses: the length of the prefix penalized. */
  missPenalty?: MissPenalty
  /** The deprecated uses the request made (`/server-api?tag`), as the deployment announces them. */
  deprecated?: string[]
}

declare module 'hono' {
  interface ContextVariableMap {
    requestNotes: RequestNotes
  }
}

/** Adds facts to the request's notes. */
export function note(c: Context, facts: RequestNotes): void {
  const notes = c.get('requestNotes')
  if (notes === undefined) c.set('requestNotes', { ...facts })
  else Object.assign(notes, facts)
}

/** The request's notes so far. */
export function notesOf(c: Context): RequestNotes {
  return c.get('requestNotes') ?? {}
}

/** Middleware that notes the endpoint of the requests it sees, before any later one answers. */
export function routeEvent(event: RequestEvent): MiddlewareHandler {
  return async (c, next) => {
    note(c, { event })
    await next()
  }
}
