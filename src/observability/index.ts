/**
 * Observability in one place: one log line (./log.ts) and one Analytics Engine data point
 * (./metrics.ts) per request and per publish. The line is built from what the caller got (the
 * response), the failure Hono's error handler mapped (`c.error`), and the few facts routes and
 * the rate limiter noted on the context (./notes.ts); no route logs its own requests.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { isPublicationId } from '../ids/publication-id'
import { failureOf, toPublicError, type Failure } from '../http/errors'
import { CLIENT_IP_HEADER } from '../rate-limit/client-key'
import { clientHash } from './client-hash'
import { describeCause, logIncident, logRequest, type RequestLine } from './log'
import { recordMetrics } from './metrics'
import { notesOf, type RequestNotes } from './notes'
import { eventOf, outcomeOf } from './outcomes'

export { logIncident } from './log'
export { limiterNotes, note } from './notes'

/** Middleware, registered first: logs and records every request once its response is ready. */
export function observe(): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    const startedAt = Date.now()
    await next()
    try {
      const line = await requestLine(c, startedAt)
      logRequest(line)
      recordMetrics(c.env.METRICS, line)
    } catch (cause) {
      // Never let the log cost the caller its answer.
      logIncident('observation_failed', 'building the request line failed', cause)
    }
  }
}

/** Logs and records a publish made over RPC, where there is no HTTP request to observe. */
export function observeRpcPublish(
  env: Env,
  startedAt: number,
  exportBytes: number,
  result: { id: string } | { failure: Failure },
): void {
  const failure = 'failure' in result ? result.failure : undefined
  const status = failure === undefined ? 201 : toPublicError(failure).status
  const line = withNotes(
    {
      event: 'publish',
      method: 'RPC',
      status,
      outcome: outcomeOf('publish', 'RPC', status, failure),
      ms: Date.now() - startedAt,
      bytes: 0,
    },
    failure,
    { exportBytes, id: 'id' in result ? result.id : undefined },
  )
  logRequest(line)
  recordMetrics(env.METRICS, line)
}

async function requestLine(c: Context<{ Bindings: Env }>, startedAt: number): Promise<RequestLine> {
  const event = eventOf(c.req.path)
  const { method } = c.req
  const { status } = c.res
  const failure = c.error === undefined ? undefined : failureOf(c.error)
  const notes = notesOf(c)
  // The route notes the ID it served; the URL is read again only for requests it did not serve.
  const id = notes.id ?? (event === 'retrieve' ? requestedId(c.req.url) : undefined)
  const line = withNotes(
    {
      event,
      method,
      status,
      outcome: outcomeOf(event, method, status, failure),
      ms: Date.now() - startedAt,
      bytes: method === 'HEAD' ? 0 : declaredLength(c.res),
    },
    failure,
    { ...notes, id },
  )
  const colo = (c.req.raw.cf as { colo?: unknown } | undefined)?.colo
  if (typeof colo === 'string') line.colo = colo
  const ray = c.req.header('CF-Ray')
  if (ray !== undefined) line.ray = ray
  const secret = c.env.LOG_CLIENT_KEY
  if (secret) line.client = await clientHash(secret, c.req.header(CLIENT_IP_HEADER))
  return line
}

/** The line with the cause of its failure and the noted facts, leaving out what is unknown. */
function withNotes(
  line: RequestLine,
  failure: Failure | undefined,
  notes: RequestNotes,
): RequestLine {
  if (notes.id !== undefined) line.id = notes.id
  if (notes.limiter !== undefined) line.limiter = notes.limiter
  if (notes.refusingWindow !== undefined) line.window = notes.refusingWindow
  if (notes.exportBytes !== undefined) line.exportBytes = notes.exportBytes
  if (notes.tagLength !== undefined) line.tagLength = notes.tagLength
  if (failure !== undefined && 'cause' in failure) line.cause = describeCause(failure.cause)
  return line
}

/** The `id` of a request URL, when it is a well-formed publication ID (never anything else). */
function requestedId(url: string): string | undefined {
  const id = new URL(url).searchParams.get('id')
  return isPublicationId(id) ? id : undefined
}

/**
 * Body bytes of a response as its Content-Length declares them: exact for every export. Small
 * answers that declare none (error bodies, the publish result) count 0: measuring them on a
 * copy would triple the cost of a 429, the answer a flood gets.
 */
function declaredLength(response: Response): number {
  return Number(response.headers.get('Content-Length') ?? 0)
}
