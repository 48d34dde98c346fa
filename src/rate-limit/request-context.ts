/**
 * What the rate limiter puts on a request's context: the client key, derived once, and the
 * request's admission, the promise a route awaits before it answers. The limiter sets the
 * admission and hands the request on at once, so the route can start reading while the limiter
 * decides, and both waits overlap. A route without a limiter in front of it is admitted at once.
 */
import type { Context } from 'hono'
import { CLIENT_IP_HEADER, clientKey } from './client-key'

declare module 'hono' {
  interface ContextVariableMap {
    rateLimitClientKey: string
    rateLimitAdmission: Promise<boolean>
  }
}

const ADMITTED = Promise.resolve(true)

/** The client key of the request (client-key.ts), derived at the first call and kept. */
export function clientKeyOf(c: Context): string {
  let key = c.get('rateLimitClientKey')
  if (key === undefined) {
    key = clientKey(c.req.header(CLIENT_IP_HEADER))
    c.set('rateLimitClientKey', key)
  }
  return key
}

/** Sets the request's admission: true once admitted, false when refused. Never rejects. */
export function setAdmission(c: Context, admission: Promise<boolean>): void {
  c.set('rateLimitAdmission', admission)
}

/**
 * Resolves true once the request is admitted, false when it is not (refused, or no verdict). A
 * route that is not admitted stops, drops what it started and returns `notAdmitted(c)`.
 */
export function admission(c: Context): Promise<boolean> {
  return c.get('rateLimitAdmission') ?? ADMITTED
}

/**
 * What a route returns for a request that was not admitted: a placeholder that is never sent,
 * since the limiter answers such a request itself, after the route (its 429 or 503, in one
 * place: middleware.ts).
 */
export function notAdmitted(c: Context): Response {
  return c.body(null)
}
