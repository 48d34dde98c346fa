/**
 * The Worker: the public read API (`/server-api`, src/exports/server-api.ts), the editor's
 * publish API, the Durable Object classes they use, the OpenAPI document and the try-it page.
 * Middleware order matters: compression is outermost, so the log sees the body's own length
 * before compression drops Content-Length; the observer comes next, so every request is logged
 * and counted once with its final answer. Each route notes its own event for the log.
 */
import { env } from 'cloudflare:workers'
import { Hono } from 'hono'
import type { Env } from './config'
import { EDITOR_API_PATH, OPENAPI_PATH, PAGE_PATH, SERVER_API_PATH } from './contract/routes'
import { serverApi } from './exports/server-api'
import { defaultTag } from './exports/tag'
import { contentEncoding } from './http/content-encoding'
import { publicCors } from './http/cors'
import { errorResponse, failureOf } from './http/errors'
import { observe, routeEvent } from './observability'
import { serveOpenApi } from './openapi'
import { editorApi } from './publish/editor-api'
import { CLIENT_IP_HEADER, clientKey } from './rate-limit/client-key'
import { rateLimit } from './rate-limit/middleware'
import { withSimulatedKvLag } from './storage/simulated-kv-lag'

// A setting that cannot work stops the Worker at startup (and `wrangler deploy`), with the
// setting's name in the message, instead of answering every request with a 500.
defaultTag(env)

// strict: false serves `/server-api/` exactly like `/server-api`, without a redirect.
const app = new Hono<{ Bindings: Env }>({ strict: false })

app.use('*', contentEncoding())
app.use(observe({ clientKey: (c) => clientKey(c.req.header(CLIENT_IP_HEADER)) }))

app.route(SERVER_API_PATH, serverApi({ rateLimit: rateLimit() }))
app.route(EDITOR_API_PATH, editorApi)

app.use(OPENAPI_PATH, routeEvent('openapi'), publicCors())
app.get(OPENAPI_PATH, serveOpenApi)

// The page is served from the static assets; a request for it reaches the Worker only if they
// lack it.
app.use(PAGE_PATH, routeEvent('page'))

app.notFound((c) => errorResponse({ reason: 'route_not_found', path: c.req.path }))

// The failure and its cause are logged by the observer, from `c.error`; the routes that answer
// with CORS add it to this response too (src/http/cors.ts runs after it).
app.onError((err) => errorResponse(failureOf(err)))

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    app.fetch(request, withSimulatedKvLag(env), ctx),
} satisfies ExportedHandler<Env>
export { RateLimiter } from './rate-limit/rate-limiter'
export { IdAllocator } from './ids/id-allocator'
export { PublishService } from './publish/entrypoint'
