/**
 * The editor API's bearer token check. The token is a secret shared with the editor's backend
 * only; without one configured the editor API does not exist (404), so a deployment that
 * forgot `wrangler secret put PUBLISH_TOKEN` exposes nothing.
 *
 * Rotation without downtime (docs/operations.md): while `PUBLISH_TOKEN_NEXT` is set, it is
 * accepted beside `PUBLISH_TOKEN`, so the editor's backend can switch at its own moment.
 */
import type { MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { ServiceFailure } from '../http'

// RFC 6750 section 2.1, the scheme name case-insensitive per RFC 9110 section 11.1.
const BEARER = /^Bearer +(\S+) *$/i

/** Middleware: 404 when no token is configured, 401 unless the request carries one of them. */
export function requirePublishToken(): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    const accepted = acceptedTokens(c.env)
    if (accepted.length === 0) {
      throw new ServiceFailure({ reason: 'route_not_found', path: c.req.path })
    }
    const given = BEARER.exec(c.req.header('Authorization') ?? '')?.[1]
    if (given === undefined || !(await matchesAny(given, accepted))) {
      throw new ServiceFailure({ reason: 'unauthorized' })
    }
    await next()
  }
}

/** The configured tokens: `PUBLISH_TOKEN`, and `PUBLISH_TOKEN_NEXT` while a rotation runs. */
function acceptedTokens(env: Env): string[] {
  return [env.PUBLISH_TOKEN, env.PUBLISH_TOKEN_NEXT].filter((token): token is string => !!token)
}

/**
 * Compares in constant time. Hashing first gives all sides the same length, so neither the
 * length nor any prefix of a secret shows in the timing; every token is compared, so neither
 * does which one matched.
 */
async function matchesAny(given: string, accepted: string[]): Promise<boolean> {
  const [mine, ...theirs] = await Promise.all([given, ...accepted].map(sha256))
  let matched = false
  for (const expected of theirs) matched = crypto.subtle.timingSafeEqual(mine!, expected) || matched
  return matched
}

function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
}
