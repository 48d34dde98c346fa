/**
 * Observability in one place: one log line (./log.ts) and one Analytics Engine data point
 * (./metrics.ts) per request and per publish. The line is built from what the caller got (the
 * response), the failure Hono's error handler mapped (`c.error`), and the facts the routes and
 * the rate limiter noted on the context (./notes.ts): which endpoint, which ID, how the limiter
 * took it. The log knows no route and no domain rule; no route logs its own requests.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { failureOf, type Failure } from '../http'
import { clientHash } from './client-hash'
import { describeCause, logIncident, logRequest, type RequestLine } from './log'
import { recordMetrics } from './metrics'
import { notesOf, type RequestNotes } from './notes'
import { outcomeOf } from './outcomes'

export { logIncident, logRequest, type RequestLine } from './log'
export { METRIC_BLOBS, METRIC_DOUBLES, recordMetrics } from './metrics'
export { note, notesOf, routeEvent } from './notes'
export {
  outcomeOf,
  type Incident,
  type LimiterVerdict,
  type MissPenalty,
  type Outcome,
  type RequestEvent,
} from './outcomes'

/** Options of `observe`. */
export interface ObserveOptions {
  /** The rate-limit key of a request: what the client hash hashes, when `LOG_CLIENT_KEY` is set. */
  clientKey?: (c: Context) => string
}

/** Middleware, registered first: logs and records every request once its response is ready. */
export function observe(options: ObserveOptions = {}): MiddlewareHandler<{ Bindings: Env }> {
  const { clientKey } = options
  return async (c, next) => {
    const startedAt = Date.now()
    await next()
    try {
      const line = requestLine(c, startedAt)
      const secret = c.env.LOG_CLIENT_KEY
      if (secret) {
        const key = clientKey?.(c)
        if (key !== undefined) line.client = await clientHash(secret, key)
      }
      logRequest(line)
      recordMetrics(c.env.METRICS, line)
    } catch (cause) {
      // Never let the log cost the caller its answer.
      logIncident('observation_failed', 'building the request line failed', cause)
    }
  }
}

function requestLine(c: Context<{ Bindings: Env }>, startedAt: number): RequestLine {
  const notes = notesOf(c)
  const event = notes.event ?? 'other'
  const { method } = c.req
  const { status } = c.res
  const failure = c.error === undefined ? undefined : failureOf(c.error)
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
    notes,
  )
  const colo = (c.req.raw.cf as { colo?: unknown } | undefined)?.colo
  if (typeof colo === 'string') line.colo = colo
  const ray = c.req.header('CF-Ray')
  if (ray !== undefined) line.ray = ray
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
  if (notes.missPenalty !== undefined) line.penalty = notes.missPenalty
  if (notes.exportBytes !== undefined) line.exportBytes = notes.exportBytes
  if (notes.tagLength !== undefined) line.tagLength = notes.tagLength
  if (notes.deprecated !== undefined) line.deprecated = notes.deprecated
  describeFailure(line, failure)
  return line
}

/**
 * Adds what a log may say of `failure`: its cause, whether a storage failure was an unsettled
 * lookup, or the rule an unsafe export broke.
 */
export function describeFailure(line: RequestLine, failure: Failure | undefined): void {
  if (failure === undefined) return
  if ('cause' in failure) line.cause = describeCause(failure.cause)
  if (failure.reason === 'storage_failed' && failure.unsettled === true) line.unsettled = true
  if (failure.reason === 'unsafe_export') line.unsafe = failure.rule
}

/**
 * Body bytes of a response as its Content-Length declares them: exact for every export. Small
 * answers that declare none (error bodies, the publish result) count 0: measuring them on a
 * copy would triple the cost of a 429, the answer a flood gets.
 */
function declaredLength(response: Response): number {
  return Number(response.headers.get('Content-Length') ?? 0)
}
