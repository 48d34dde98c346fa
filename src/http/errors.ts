/**
 * The one place where internal failures become public errors. Code anywhere below the routes
 * throws `ServiceFailure` with a tagged reason; `errorResponse` maps it, exhaustively, to the
 * status, code and message a caller sees. Internals (causes, stack traces) never leak.
 */

/** Why a request failed, in the service's own words. */
export type Failure =
  | { reason: 'invalid_id'; received: string | null }
  | { reason: 'unknown_id'; id: string }
  | { reason: 'expired'; id: string }
  | { reason: 'not_yet_visible'; id: string; retryAfterSeconds: number }
  | { reason: 'storage_failed'; cause: unknown }
  | { reason: 'method_not_allowed'; method: string; allow: string }
  | { reason: 'route_not_found'; path: string }
  | { reason: 'rate_limited'; retryAfterSeconds: number }
  | { reason: 'unauthorized' }
  | { reason: 'unsupported_media_type'; contentType: string | null }
  | { reason: 'too_large'; limitBytes: number }
  | { reason: 'invalid_json'; detail: string }
  | { reason: 'invalid_export'; detail: string }
  | { reason: 'invalid_quick_command'; detail: string }
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
  status: 400 | 401 | 404 | 405 | 410 | 413 | 415 | 429 | 500 | 503
  code: string
  message: string
  headers?: Record<string, string>
  /** Extra fields of the `error` object, beside `code` and `message`. */
  details?: Record<string, unknown>
}

/** Maps an internal failure to the public error. */
export function toPublicError(failure: Failure): PublicError {
  switch (failure.reason) {
    case 'invalid_id':
      return {
        status: 400,
        code: 'invalid_id',
        message:
          failure.received === null
            ? 'The query parameter "id" is required: the six-digit publication ID.'
            : 'The query parameter "id" must be exactly six ASCII digits (0-9).',
      }
    case 'unknown_id':
      return {
        status: 404,
        code: 'not_found',
        message: `No export is published under ID ${failure.id}.`,
      }
    case 'expired':
      return {
        status: 410,
        code: 'expired',
        message: `The export published under ID ${failure.id} has expired. Publish the model again to get a new ID.`,
      }
    case 'not_yet_visible':
      return {
        status: 503,
        code: 'not_ready',
        message: `The export ${failure.id} was just published and is not yet visible here. Retry shortly.`,
        headers: { 'Retry-After': String(failure.retryAfterSeconds) },
        details: { retryAfterSeconds: failure.retryAfterSeconds },
      }
    case 'storage_failed':
      return {
        status: 503,
        code: 'unavailable',
        message: 'Storage is unavailable. Retry shortly.',
        headers: { 'Retry-After': '1' },
        details: { retryAfterSeconds: 1 },
      }
    case 'method_not_allowed':
      return {
        status: 405,
        code: 'method_not_allowed',
        message: `Method ${failure.method} is not allowed here. Allowed: ${failure.allow}.`,
        headers: { Allow: failure.allow },
      }
    case 'route_not_found':
      return {
        status: 404,
        code: 'not_found',
        message: 'No such endpoint. The API is GET /server-api?id=NNNNNN&tag=TAG.',
      }
    case 'rate_limited':
      return {
        status: 429,
        code: 'rate_limited',
        message: `Too many requests from this address. Retry after ${failure.retryAfterSeconds} seconds.`,
        headers: { 'Retry-After': String(failure.retryAfterSeconds) },
        details: { retryAfterSeconds: failure.retryAfterSeconds },
      }
    case 'unauthorized':
      return {
        status: 401,
        code: 'unauthorized',
        message: 'A valid "Authorization: Bearer <token>" header is required.',
        headers: { 'WWW-Authenticate': 'Bearer realm="editor-api"' },
      }
    case 'unsupported_media_type':
      return {
        status: 415,
        code: 'unsupported_media_type',
        message: 'The body must be sent as Content-Type: application/json.',
      }
    case 'too_large':
      return {
        status: 413,
        code: 'too_large',
        message: `The export is larger than the ${failure.limitBytes}-byte limit.`,
        details: { limitBytes: failure.limitBytes },
      }
    case 'invalid_json':
      return {
        status: 400,
        code: 'invalid_json',
        message: `The body is not valid JSON: ${failure.detail}`,
      }
    case 'invalid_export':
      return { status: 400, code: 'invalid_export', message: failure.detail }
    case 'invalid_quick_command':
      return { status: 400, code: 'invalid_quick_command', message: failure.detail }
    case 'id_space_full':
      return {
        status: 503,
        code: 'capacity',
        message: 'Every publication ID is in use. Retry later.',
        headers: { 'Retry-After': String(failure.retryAfterSeconds) },
        details: { retryAfterSeconds: failure.retryAfterSeconds },
      }
    case 'allocator_failed':
      return {
        status: 503,
        code: 'unavailable',
        message: 'Publishing is unavailable. Nothing was stored; retry shortly.',
        headers: { 'Retry-After': '1' },
        details: { retryAfterSeconds: 1 },
      }
    case 'internal':
      return { status: 500, code: 'internal', message: 'Internal error.' }
  }
}

/**
 * The JSON error response of a failure: `{ "error": { code, message, ... } }`, never cached. Its
 * Content-Length is set, so that a HEAD, whose body is dropped, still carries the GET's.
 */
export function errorResponse(failure: Failure): Response {
  const error = toPublicError(failure)
  const body = new TextEncoder().encode(
    JSON.stringify({ error: { code: error.code, message: error.message, ...error.details } }),
  )
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
