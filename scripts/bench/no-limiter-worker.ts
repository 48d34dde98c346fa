/**
 * Bench-only Worker: the service's read route exactly as src/index.ts mounts it (compression,
 * the request log, CORS, the route, the error handler), minus `rateLimit()`. The difference
 * between it and the real bundle is the cost of the limiter. Its ID_ALLOCATOR binding points at
 * the real Worker's objects (a miss asks the allocator).
 */
import { Hono } from 'hono'
import type { Env } from '../../src/config'
import { serveExport } from '../../src/exports/serve'
import { contentEncoding } from '../../src/http/content-encoding'
import { publicCors, withCorsHeaders } from '../../src/http/cors'
import { errorResponse, failureOf } from '../../src/http/errors'
import { observe } from '../../src/observability'

const app = new Hono<{ Bindings: Env }>({ strict: false })

app.use('*', contentEncoding())
app.use(observe())
app.use('/server-api', publicCors())
app.get('/server-api', serveExport)
app.onError((err) => {
  const response = errorResponse(failureOf(err))
  withCorsHeaders(response.headers)
  return response
})

export default app
