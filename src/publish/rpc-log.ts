/**
 * The request log's line for a publish made over RPC, where there is no HTTP request for the
 * observer to see: the same fields and metrics as `POST /editor-api/exports`, with the status the
 * editor API would have answered and `RPC` as its method.
 */
import type { Env } from '../config'
import { toPublicError, type Failure } from '../http'
import {
  describeFailure,
  logRequest,
  outcomeOf,
  recordMetrics,
  type RequestLine,
} from '../observability'

/** Logs and records a publish over RPC that started at `startedAt` (ms) with `exportBytes`. */
export function logRpcPublish(
  env: Env,
  startedAt: number,
  exportBytes: number,
  result: { id: string } | { failure: Failure },
): void {
  const failure = 'failure' in result ? result.failure : undefined
  const status = failure === undefined ? 201 : toPublicError(failure).status
  const line: RequestLine = {
    event: 'publish',
    method: 'RPC',
    status,
    outcome: outcomeOf('publish', 'RPC', status, failure),
    ms: Date.now() - startedAt,
    bytes: 0,
  }
  if ('id' in result) line.id = result.id
  line.exportBytes = exportBytes
  describeFailure(line, failure)
  logRequest(line)
  recordMetrics(env.METRICS, line)
}
