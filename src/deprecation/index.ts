/**
 * Announcements in the response (docs/api.md#compatibility): a request that uses a deprecated
 * route, or a deprecated query parameter, gets its answer unchanged plus `Deprecation`, `Sunset`
 * and `Link` headers, and the request log and metrics name the use, so an operator sees who still
 * calls it before the sunset. Nothing else of the answer changes. Registered after the observer,
 * so its note reaches the log, and around every route, so errors and 429s announce it too.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { note } from '../observability'
import { announce } from './headers'
import { deprecatedUses, type DeprecatedUse } from './settings'

export { deprecatedUses } from './settings'

/** Middleware: announces the deprecated uses of a request on its response, and notes them. */
export function announceDeprecations(): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    const configured = deprecatedUses(c.env)
    await next()
    // A preflight is the browser's, not a use: the request it clears is announced.
    if (configured.length === 0 || c.req.method === 'OPTIONS') return
    const uses = usesOf(c, configured)
    if (uses.length === 0) return
    announce(c.res.headers, uses)
    note(c, { deprecated: uses.map((use) => use.use) })
  }
}

/** The configured uses this request makes: its route, and the parameters it names. */
function usesOf(c: Context, configured: readonly DeprecatedUse[]): DeprecatedUse[] {
  const route = routeOf(c.req.path)
  const matching = configured.filter((use) => use.route === route)
  if (matching.length === 0) return []
  const query = new URL(c.req.url).searchParams
  return matching.filter((use) => use.parameter === null || query.has(use.parameter))
}

/** The path as the router serves it: `/server-api/` is `/server-api`. */
function routeOf(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}
