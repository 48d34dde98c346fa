/**
 * The app: the public read API (`/server-api`, src/exports/server-api.ts), the editor's publish
 * API, the OpenAPI document and the try-it page's fallback, built once here for the Worker
 * (src/index.ts) and for the bench's variants, so no variant composes the middleware again.
 * Middleware order matters: compression is outermost, so the log sees the body's own length
 * before compression drops Content-Length; the observer comes next, so every request is logged
 * and counted once with its final answer; deprecation announcements come right after it, so they
 * reach every answer of a route and the log. Each route notes its own event for the log.
 */
import { Hono } from 'hono'
import { getPathNoStrict } from 'hono/utils/url'
import { rateLimitFlushSeconds, type Env } from './config'
import { EDITOR_API_PATH, OPENAPI_PATH, PAGE_PATH, SERVER_API_PATH } from './contract/routes'
import { announceDeprecations } from './deprecation'
import { serverApi } from './exports'
import { contentEncoding, errorResponse, failureOf, publicCors, ServiceFailure } from './http'
import { observe, routeEvent } from './observability'
import { serveOpenApi } from './openapi'
import { editorApi } from './publish'
import {
  clientKeyOf,
  missSettings,
  rateLimit,
  rateLimitRules,
  type RateLimitOptions,
} from './rate-limit'

/**
 * The policy of docs/api.md#rate-limits, from the vars `RATE_LIMIT_SHORT`, `_LONG` and
 * `_FLUSH_SECONDS`, and the miss limit from the `RATE_LIMIT_*_MISSES` and `_PENALTY_SECONDS` vars.
 */
const RATE_LIMIT_FROM_VARS: RateLimitOptions = {
  rules: rateLimitRules,
  flushSeconds: rateLimitFlushSeconds,
  misses: missSettings,
}

/**
 * The path routes are matched on. A plugin is updated rarely, so every spelling plugins send is
 * served as it is, never redirected (docs/api.md#compatibility): `/server-api/` like
 * `/server-api` (Hono's non-strict path), and `//server-api`, which a base URL ending in a slash
 * makes, like `/server-api` (repeated slashes count as one).
 */
function routedPath(request: Request): string {
  return getPathNoStrict(request).replace(/\/{2,}/g, '/')
}

/** Options of `createApp`. */
export interface AppOptions {
  /**
   * The public endpoint's rate limit: the vars' policy by default; `false` serves it without
   * one (the bench's measure of what the limiter costs).
   */
  rateLimit?: RateLimitOptions | false
}

/** The whole app, with the rate limit of `options`. */
export function createApp(options: AppOptions = {}): Hono<{ Bindings: Env }> {
  const limit = options.rateLimit ?? RATE_LIMIT_FROM_VARS
  const app = new Hono<{ Bindings: Env }>({ getPath: routedPath })

  app.use('*', contentEncoding())
  app.use(observe({ clientKey: clientKeyOf }))
  app.use(announceDeprecations())

  app.route(SERVER_API_PATH, serverApi(limit === false ? {} : { rateLimit: rateLimit(limit) }))
  app.route(EDITOR_API_PATH, editorApi)

  app.use(OPENAPI_PATH, routeEvent('openapi'), publicCors())
  app.get(OPENAPI_PATH, serveOpenApi)

  // The page is served from the static assets; a request for it reaches the Worker only if they
  // lack it.
  app.use(PAGE_PATH, routeEvent('page'))

  // Answered rather than thrown: Hono calls this past the last middleware, where a throw would
  // skip the observer. The failure goes on the context for the log all the same.
  app.notFound((c) => {
    const failure = new ServiceFailure({ reason: 'route_not_found', path: c.req.path })
    c.error = failure
    return errorResponse(failure.failure)
  })

  // The failure and its cause are logged by the observer, from `c.error`; the routes that answer
  // with CORS add it to this response too (src/http/cors.ts runs after it).
  app.onError((err) => errorResponse(failureOf(err)))
  return app
}
