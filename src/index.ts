/**
 * The Worker: the public read API (`/server-api`), the editor's publish API, the Durable
 * Object classes they use, the OpenAPI document and the try-it page. Middleware order matters:
 * the observer comes first, so every request is logged and counted once with its final answer;
 * CORS answers preflights before the rate limiter, so preflights cost no quota and every later
 * response, 429s included, carries CORS.
 */
import { Hono } from 'hono'
import type { Env } from './config'
import { serveExport } from './exports/serve'
import { contentEncoding } from './http/content-encoding'
import { publicCors, withCorsHeaders } from './http/cors'
import { errorResponse, failureOf, ServiceFailure } from './http/errors'
import { PUBLIC_METHODS } from './http/wire-contract'
import { observe } from './observability'
import { serveOpenApi } from './openapi'
import { editorApi } from './publish/editor-api'
import { rateLimit } from './rate-limit/middleware'

// strict: false serves `/server-api/` exactly like `/server-api`, without a redirect.
const app = new Hono<{ Bindings: Env }>({ strict: false })

// Outermost, so the log sees the body's own length before compression drops Content-Length.
app.use('*', contentEncoding())
app.use(observe())
app.use('/server-api', publicCors())
app.use('/server-api', rateLimit())
app.get('/server-api', serveExport)
app.all('/server-api', (c) => {
  throw new ServiceFailure({
    reason: 'method_not_allowed',
    method: c.req.method,
    allow: PUBLIC_METHODS,
  })
})

app.route('/editor-api', editorApi)

app.use('/openapi.json', publicCors())
app.get('/openapi.json', serveOpenApi)

app.notFound((c) => errorResponse({ reason: 'route_not_found', path: c.req.path }))

// The failure and its cause are logged by the observer, from `c.error`.
app.onError((err, c) => {
  const response = errorResponse(failureOf(err))
  if (isPublicPath(c.req.path)) withCorsHeaders(response.headers)
  return response
})

function isPublicPath(path: string): boolean {
  return path === '/server-api' || path === '/server-api/'
}

export default app
export { RateLimiter } from './rate-limit/rate-limiter'
export { IdAllocator } from './ids/id-allocator'
export { PublishService } from './publish/entrypoint'
