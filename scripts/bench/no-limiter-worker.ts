/**
 * Bench-only Worker: the service's read route, the very sub-app src/index.ts mounts
 * (src/exports/server-api.ts), with compression, the request log and the error handler around it
 * as there, minus the rate limiter. The difference between it and the real bundle is the cost of
 * the limiter. Its ID_ALLOCATOR binding points at the real Worker's objects (a miss asks the
 * allocator).
 */
import { Hono } from 'hono'
import type { Env } from '../../src/config'
import { SERVER_API_PATH } from '../../src/contract/routes'
import { serverApi } from '../../src/exports/server-api'
import { contentEncoding } from '../../src/http/content-encoding'
import { errorResponse, failureOf } from '../../src/http/errors'
import { observe } from '../../src/observability'

const app = new Hono<{ Bindings: Env }>({ strict: false })

app.use('*', contentEncoding())
app.use(observe())
app.route(SERVER_API_PATH, serverApi())
app.onError((err) => errorResponse(failureOf(err)))

export default app
