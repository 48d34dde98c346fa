/**
 * The editor API's bearer token check. The token is a secret shared with the editor's backend
 * only; without one configured the editor API does not exist (404), so a deployment that
 * forgot `wrangler secret put PUBLISH_TOKEN` exposes nothing.
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { ServiceFailure } from '../http/errors'

// RFC 6750 section 2.1, the scheme name case-insensitive per RFC 9110 section 11.1.
const BEARER = /^Bearer +(\S+) *$/i

/** Middleware: 404 when no token is configured, 401 unless the request carries it. */
export function requirePublishToken(): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    const expected = c.env.PUBLISH_TOKEN
    if (!expected) throw new ServiceFailure({ reason: 'route_not_found', path: c.req.path })
    const given = BEARER.exec(c.req.header('Authorization') ?? '')?.[1]
    if (given === undefined || !(await tokensEqual(given, expected))) {
      throw new ServiceFailure({ reason: 'unauthorized' })
    }
    await next()
  }
}

/**
 * Compares in constant time. Hashing first gives both sides the same length, so neither the
 * length nor any prefix of the secret shows in the timing.
 */
async function tokensEqual(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder()
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(given)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ])
  return crypto.subtle.timingSafeEqual(a, b)
}
