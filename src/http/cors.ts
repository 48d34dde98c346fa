import { cors } from 'hono/cors'
import type { MiddlewareHandler } from 'hono'
import { EXPOSED_HEADERS, PUBLIC_METHODS } from '../contract/wire'

/** How long a browser may cache a preflight answer. */
export const PREFLIGHT_MAX_AGE_SECONDS = 86400

const CORS_ON_EVERY_RESPONSE = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': PUBLIC_METHODS,
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
}

/**
 * CORS for the public endpoint. Hono's `cors` answers preflights (204, before any later
 * middleware, so they cost no quota); the spec wants the allow headers on every response too,
 * errors and 429s included, which Hono sends on preflights only, so they are added after it.
 * Credentials are never allowed: the wildcard origin forbids them
 * (docs/api.md#cross-origin-access).
 */
export function publicCors(): MiddlewareHandler {
  const preflight = cors({
    origin: '*',
    // One element, so Hono's join leaves the value exactly as on every other response.
    allowMethods: [PUBLIC_METHODS],
    allowHeaders: ['*'],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  })
  return async (c, next) => {
    const answered = await preflight(c, next)
    const response = answered ?? c.res
    withCorsHeaders(response.headers)
    return answered
  }
}

/** Sets the public CORS headers on a header list. */
export function withCorsHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(CORS_ON_EVERY_RESPONSE)) headers.set(name, value)
}
