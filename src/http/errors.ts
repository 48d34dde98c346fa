/**
 * The one place where internal failures become public errors. Code anywhere below the routes
 * throws `ServiceFailure` with a tagged reason; `errorResponse` maps it, exhaustively, to the
 * status, code and message a caller sees. Internals (causes, stack traces) never leak. The
 * codes and their statuses are the wire contract's error catalogue (src/contract/wire.ts).
 */
import { SERVER_API_PATH } from '../contract/routes'
import {
  EDITOR_API_CHALLENGE,
  ERROR_CODES,
  RETRY_AFTER_HEADER,
  type ErrorCode,
  type ErrorStatus,
} from '../contract/wire'

/** Why a request failed, in the service's own words. */
export type Failure =
  | { reason: 'invalid_id'; received: string | null }
  | { reason: 'unknown_id'; id: string }
  | { reason: 'expired'; id: string }
  | { reason: 'not_yet_visible'; id: string; retryAfterSeconds: number }
  /**
   * `unsettled`: KV does not hold the ID and the shard that would know whether it is live did not
   * answer. The answer is a 503 that only an ID missing from KV gets, so the limiter counts it as
   * a miss (docs/rate-limits.md#misses).
   */
  | { reason: 'storage_failed'; cause: unknown; unsettled?: true }
  | { reason: 'method_not_allowed'; method: string; allow: string }
  | { reason: 'route_not_found'; path: string }
  /**
   * `penalty`: refused for the misses of the client (`client`) or of its network (`prefix`), not
   * for its request windows (docs/rate-limits.md#misses). `inFlight`: refused because its
   * network's requests in flight from clients not known to be clean hold what is left of its
   * miss budget (docs/rate-limits.md#bursts).
   */
  | {
      reason: 'rate_limited'
      retryAfterSeconds: number
      headers: Record<string, string>
      penalty?: 'client' | 'prefix'
      inFlight?: 'prefix'
    }
  /** The rate limiter gave no verdict (docs/security.md#when-the-limiter-cannot-answer). */
  | { reason: 'limiter_unavailable'; retryAfterSeconds: number }
  | { reason: 'unauthorized' }
  | { reason: 'unsupported_media_type'; contentType: string | null }
  | { reason: 'too_large'; limitBytes: number }
  | { reason: 'invalid_json'; detail: string }
  | { reason: 'invalid_export'; detail: string }
  | { reason: 'invalid_quick_command'; detail: string }
  /**
   * Outside the display-model vocabulary (src/export-safety/): `rule` is the refusal's reason
   * (`command`, `entity`, ...), what the log and metrics count; `detail` names `path` and what
   * was found there.
   */
  | { reason: 'unsafe_export'; rule: string; path: string; detail: string }
  | { reason: 'id_space_full'; retryAfterSeconds: number }
  | { reason: 'allocator_failed'; cause: unknown }
  | { reason: 'internal'; cause: unknown }

/** Thrown by services and middleware; `onError` turns it into a response. */
export class ServiceFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.reason)
    this.name = 'ServiceFailure'
  }
}

/** What a caller sees of a failure. */
export interface PublicError {
  status: ErrorStatus
  code: ErrorCode
  /** Plain text: no control, format (bidirectional, zero-width) or separator characters. */
  message: string
  headers?: Record<string, string>
  /** Extra fields of the body, beside `code` and the message; their strings plain text too. */
  details?: Record<string, unknown>
}

/** The first sentence of a 429's message: what caused the refusal. */
const REFUSAL_CAUSES = {
  requests: 'Too many requests from this address.',
  client: 'Too many requests from this address asked for exports that do not exist.',
  prefix: 'Too many requests from this network asked for exports that do not exist.',
  prefixInFlight: 'Too many requests from this network are in flight at once.',
} as const

/** The cause a 429's message names. */
function refusalCause(
  failure: Extract<Failure, { reason: 'rate_limited' }>,
): keyof typeof REFUSAL_CAUSES {
  if (failure.penalty !== undefined) return failure.penalty
  if (failure.inFlight !== undefined) return `${failure.inFlight}InFlight`
  return 'requests'
}

/** Maps an internal failure to the public error; the status comes from the catalogue. */
export function toPublicError(failure: Failure): PublicError {
  switch (failure.reason) {
    case 'invalid_id':
      return publicError(
        'invalid_id',
        failure.received === null
          ? 'The query parameter "id" is required: the six-digit publication ID.'
          : 'The query parameter "id" must be exactly six ASCII digits (0-9).',
      )
    case 'unknown_id':
      return publicError('not_found', `No export is published under ID ${failure.id}.`)
    case 'expired':
      return publicError(
        'expired',
        `The export published under ID ${failure.id} has expired. Publish the model again to get a new ID.`,
      )
    case 'not_yet_visible':
      return retryLater(
        'not_ready',
        `The export ${failure.id} was just published and is not yet visible here. Retry shortly.`,
        failure.retryAfterSeconds,
      )
    case 'storage_failed':
      return retryLater('unavailable', 'Storage is unavailable. Retry shortly.', 1)
    case 'limiter_unavailable':
      return retryLater(
        'unavailable',
        'The rate limiter cannot answer for this network. Retry shortly.',
        failure.retryAfterSeconds,
      )
    case 'method_not_allowed':
      return publicError(
        'method_not_allowed',
        `Method ${failure.method} is not allowed here. Allowed: ${failure.allow}.`,
        { headers: { Allow: failure.allow } },
      )
    case 'route_not_found':
      return publicError(
        'not_found',
        `No such endpoint. The API is GET ${SERVER_API_PATH}?id=NNNNNN&tag=TAG.`,
      )
    case 'rate_limited': {
      const refusal = retryLater(
        'rate_limited',
        `${REFUSAL_CAUSES[refusalCause(failure)]} Retry after ${failure.retryAfterSeconds} seconds.`,
        failure.retryAfterSeconds,
      )
      return { ...refusal, headers: { ...failure.headers, ...refusal.headers } }
    }
    case 'unauthorized':
      return publicError(
        'unauthorized',
        'A valid "Authorization: Bearer <token>" header is required.',
        { headers: { 'WWW-Authenticate': EDITOR_API_CHALLENGE } },
      )
    case 'unsupported_media_type':
      return publicError(
        'unsupported_media_type',
        'The body must be sent as Content-Type: application/json.',
      )
    case 'too_large':
      return publicError(
        'too_large',
        `The export is larger than the ${failure.limitBytes}-byte limit.`,
        { details: { limitBytes: failure.limitBytes } },
      )
    case 'invalid_json':
      return publicError('invalid_json', `The body is not valid JSON: ${failure.detail}`)
    case 'invalid_export':
      return publicError('invalid_export', failure.detail)
    case 'invalid_quick_command':
      return publicError('invalid_quick_command', failure.detail)
    case 'unsafe_export':
      return publicError(
        'unsafe_export',
        `The export is not only a display model: ${failure.detail} Nothing was stored.`,
        { details: { path: failure.path } },
      )
    case 'id_space_full':
      return retryLater(
        'capacity',
        'Every publication ID is in use. Retry later.',
        failure.retryAfterSeconds,
      )
    case 'allocator_failed':
      return retryLater(
        'unavailable',
        'Publishing is unavailable. Nothing was stored; retry shortly.',
        1,
      )
    case 'internal':
      return publicError('internal', 'Internal error.')
  }
}

/**
 * Control, format and separator characters. Messages quote input (a JSON parser's complaint, a
 * field's value); a bidirectional override or a line break from it would make the sentence a
 * user reads, or a log line, say something else.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu

/** The text with every unprintable character replaced by U+FFFD. */
function plainText(text: string): string {
  return text.replace(UNPRINTABLE, '\uFFFD')
}

/** A public error with the catalogue's status for `code`; its message and details plain text. */
function publicError(
  code: ErrorCode,
  message: string,
  { headers, details }: Pick<PublicError, 'headers' | 'details'> = {},
): PublicError {
  const error: PublicError = { status: ERROR_CODES[code].status, code, message: plainText(message) }
  if (headers) error.headers = headers
  if (details) {
    error.details = Object.fromEntries(
      Object.entries(details).map(([name, value]) => [
        name,
        typeof value === 'string' ? plainText(value) : value,
      ]),
    )
  }
  return error
}

/** A public error that asks to retry: `Retry-After` and the body's `retryAfterSeconds` agree. */
function retryLater(code: RetryCode, message: string, retryAfterSeconds: number): PublicError {
  return publicError(code, message, {
    headers: { [RETRY_AFTER_HEADER]: String(retryAfterSeconds) },
    details: { retryAfterSeconds },
  })
}

/** The codes whose answers carry `Retry-After`. */
type RetryCode = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { retry: true } ? C : never
}[ErrorCode]

/**
 * The JSON body of a public error. A 429 keeps the API's object (docs/api.md#errors), `{"error": {code, message,
 * retryAfterSeconds}}` (docs/api.md#errors: `error.retryAfterSeconds`). Every other error is
 * `{"error": message, code, ...details}`: the string form the editor's original service sends,
 * which plugins in the wild map onto a `String error` field and fail on an object.
 */
function errorBody(error: PublicError): Record<string, unknown> {
  if (error.code === 'rate_limited') {
    return { error: { code: error.code, message: error.message, ...error.details } }
  }
  return { error: error.message, code: error.code, ...error.details }
}

/**
 * The JSON error response of a failure, never cached. Its Content-Length is set, so that a HEAD,
 * whose body is dropped, still carries the GET's.
 */
export function errorResponse(failure: Failure): Response {
  const error = toPublicError(failure)
  const body = new TextEncoder().encode(JSON.stringify(errorBody(error)))
  return new Response(body, {
    status: error.status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.byteLength),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...error.headers,
    },
  })
}

/** Turns anything thrown into a failure; unknown errors become `internal`. */
export function failureOf(thrown: unknown): Failure {
  return thrown instanceof ServiceFailure ? thrown.failure : { reason: 'internal', cause: thrown }
}
