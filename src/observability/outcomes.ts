/**
 * The vocabulary of the request log and the metrics: which endpoint a request was for (its
 * event, noted by the route) and what it came to (its outcome). Dashboards and alerts filter on
 * these words, so they are stable across versions, like storage keys (docs/operations.md lists
 * them all).
 *
 * A failed request's outcome is its internal failure reason (src/http/errors.ts), which says
 * more than the public code: `not_found` is `unknown_id` or `route_not_found`, `unavailable` is
 * `storage_failed` or `allocator_failed`.
 */
import type { Failure } from '../http'

/** The endpoint a request was for. `publish` is also the event of an RPC publish. */
export type RequestEvent = 'retrieve' | 'publish' | 'status' | 'openapi' | 'page' | 'other'

/** What a request that did not fail came to. */
export type Success = 'served' | 'preflight' | 'published' | 'reported'

/** What a request came to: a success, or the reason it failed. */
export type Outcome = Success | Failure['reason']

/**
 * How the rate limiter took a request; absent for requests it does not count. `failed_closed`:
 * the limiter gave no verdict and the request was answered `503`: the limiter never fails open,
 * so no request is served uncounted.
 */
export type LimiterVerdict = 'admitted' | 'refused' | 'failed_closed'

/**
 * On a refusal for misses (a penalty, or too many requests in flight): the length of the prefix
 * that refused, an IPv4 address (`/32`), its /24 or its /16, an IPv6 /64, its /48 or its /32
 * (`::/32`, told apart from an IPv4 address) (`other`: a client key that is no address). Never
 * the address.
 */
export type MissPenalty = '/32' | '/24' | '/16' | '/64' | '/48' | '::/32' | 'other'

const SUCCESS_BY_EVENT: Readonly<Record<RequestEvent, Success>> = {
  retrieve: 'served',
  publish: 'published',
  status: 'reported',
  openapi: 'served',
  page: 'served',
  other: 'served',
}

/**
 * The outcome of a finished request: its failure (thrown, or for an unknown path set on the
 * context by the handler that answered it), else its success. A failed status without a
 * failure is a response no route meant: `internal`.
 */
export function outcomeOf(
  event: RequestEvent,
  method: string,
  status: number,
  failure: Failure | undefined,
): Outcome {
  if (failure !== undefined) return failure.reason
  if (status === 204 && method === 'OPTIONS') return 'preflight'
  if (status < 400) return SUCCESS_BY_EVENT[event]
  return 'internal'
}

/** `2xx`, `4xx`, ...: the metrics' coarse status dimension. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`
}

/**
 * Something that went wrong beside a request's own outcome, logged on a line of its own: the
 * request itself was still answered (a 503 for want of a verdict, a 404 whose miss went
 * uncounted, aborted mid-body).
 */
export type Incident =
  | 'limiter_failed_closed'
  | 'limiter_miss_unreported'
  | 'id_release_failed'
  | 'export_write_timed_out'
  | 'export_stream_failed'
  | 'metrics_write_failed'
  | 'observation_failed'
