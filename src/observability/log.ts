/**
 * The service's log lines: one per request or publish (`RequestLine`), and one per incident
 * beside a request (`logIncident`). Each is logged as one object, which Workers Logs indexes
 * field by field (a string would land whole in `message`). Objects print over many lines in
 * `wrangler dev`, so each line also carries Node's inspect hook, which `wrangler dev` and vitest
 * honour and JSON ignores: locally one JSON line per request, in production the same fields.
 *
 * Privacy (docs/security.md): no tag value, no client address, no request URL. A client shows
 * only as a keyed hash of its rate-limit key, and only when `LOG_CLIENT_KEY` is set.
 */
import type { Incident, LimiterVerdict, MissPenalty, Outcome, RequestEvent } from './outcomes'

/** One request or publish, as logged and as written to the metrics. */
export interface RequestLine {
  event: RequestEvent
  /** The HTTP method, or `RPC` for a publish through the `PublishService` entrypoint. */
  method: string
  /** The status answered (over RPC: the one the editor API would answer). */
  status: number
  outcome: Outcome
  /** The publication ID, when the request named a well-formed one or a publish issued it. */
  id?: string
  /** Milliseconds from the request's arrival to its response (the body may still stream). */
  ms: number
  /** Body bytes of the response as its Content-Length declares them; 0 without one, for HEAD and RPC. */
  bytes: number
  /** The Cloudflare location that ran the request (`request.cf.colo`). */
  colo?: string
  /** The request's `CF-Ray` header, to match a client's report. */
  ray?: string
  limiter?: LimiterVerdict
  /** On a 429: the window that refused. */
  window?: string
  /** On a 429 for misses: the length of the prefix penalized (`/32`, `/24`, `/64`, `/48`). */
  penalty?: MissPenalty
  /** Bytes of the stored export (served or published). */
  exportBytes?: number
  /** Characters of the sanitized tag substituted. */
  tagLength?: number
  /** Keyed hash of the client's rate-limit key (./client-hash.ts), when configured. */
  client?: string
  /** Why it failed, for outcomes that have a cause (`storage_failed`, `internal`, ...). */
  cause?: CauseDescription
  /**
   * On `storage_failed`: KV did not hold the ID and its shard did not answer, a 503 the limiter
   * counts as a miss (docs/rate-limits.md#misses). Absent when KV itself failed.
   */
  unsettled?: true
  /**
   * The deprecated uses the request made, as `DEPRECATIONS` names them (`/server-api`,
   * `/server-api?tag`): who still calls what will go away.
   */
  deprecated?: string[]
  /**
   * On `unsafe_export`: the rule the export broke (`command`, `entity`, `key`, ...; see
   * docs/export-safety.md). Never the export's content.
   */
  unsafe?: string
}

/** An error as a log can hold it. */
export interface CauseDescription {
  name?: string
  message: string
  stack?: string
  cause?: CauseDescription
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom')
/** Nested causes logged; deeper ones are cut. */
const MAX_CAUSE_DEPTH = 4

/** Logs a request's line: as an error when the service failed it (5xx), else as a log. */
export function logRequest(line: RequestLine): void {
  write(line.status >= 500 ? 'error' : 'log', line)
}

/** Logs an incident with its cause: something went wrong that the request's answer hides. */
export function logIncident(
  incident: Incident,
  message: string,
  cause: unknown,
  fields: { id?: string } = {},
): void {
  write('error', { event: 'incident', incident, message, ...fields, cause: describeCause(cause) })
}

/** An error, its stack and its causes, as plain data. */
export function describeCause(error: unknown, depth = 0): CauseDescription {
  if (!(error instanceof Error)) return { message: String(error) }
  const description: CauseDescription = { name: error.name, message: error.message }
  if (error.stack !== undefined) description.stack = error.stack
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    description.cause = describeCause(error.cause, depth + 1)
  }
  return description
}

function write(level: 'log' | 'error', fields: object): void {
  Object.defineProperty(fields, INSPECT, { value: inspectAsJson })
  console[level](fields)
}

function inspectAsJson(this: object): string {
  return JSON.stringify(this)
}
