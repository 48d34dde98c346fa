/**
 * The errors the client throws itself. A network failure or an abort is not one of these: it
 * passes through as fetch and AbortSignal raise it (a `TypeError`, the signal's `reason`).
 */
import type { RateLimitState } from './response-headers.js'

/** Base of every error the client throws itself. */
export class ExportClientError extends Error {
  override name = 'ExportClientError'
}

/** The ID is not six ASCII digits; no request was sent. */
export class InvalidIdError extends ExportClientError {
  override name = 'InvalidIdError'
  /** The ID as given. */
  readonly id: string

  constructor(id: string) {
    super(`A publication ID is exactly six ASCII digits (0-9), got ${JSON.stringify(id)}.`)
    this.id = id
  }
}

/** What an error response said, as far as it could be read. */
export interface HttpErrorDetails {
  status: number
  /** The service's error code (`not_found`, `expired`, ...), or null when the body had none. */
  code: string | null
  /** Whole seconds to wait before retrying, or null when the response did not say. */
  retryAfterSeconds: number | null
  /** The rate-limit state the response reported, or null when it carried none. */
  rateLimit: RateLimitState | null
  /** The body as text, cut to `MAX_ERROR_BODY_CHARS`: what an infrastructure failure sent. */
  body: string
}

/** The service (or something in front of it) answered with a status other than 200. */
export class ExportHttpError extends ExportClientError implements HttpErrorDetails {
  override name = 'ExportHttpError'
  readonly status: number
  readonly code: string | null
  readonly retryAfterSeconds: number | null
  readonly rateLimit: RateLimitState | null
  readonly body: string

  constructor(message: string, details: HttpErrorDetails) {
    super(message)
    this.status = details.status
    this.code = details.code
    this.retryAfterSeconds = details.retryAfterSeconds
    this.rateLimit = details.rateLimit
    this.body = details.body
  }
}

/**
 * 429, and waiting `retryAfterSeconds` would have gone past `maxWaitSeconds`. That is null
 * only when neither `Retry-After` nor the body said how long (never from this service).
 */
export class RateLimitedError extends ExportHttpError {
  override name = 'RateLimitedError'
}

/** A 200 whose body is not an export (`{"content": {...}}`): something in between answered. */
export class InvalidResponseError extends ExportClientError {
  override name = 'InvalidResponseError'
  readonly status: number
  /** The body as text, cut to `MAX_ERROR_BODY_CHARS`. */
  readonly body: string

  constructor(message: string, status: number, body: string) {
    super(message)
    this.status = status
    this.body = body
  }
}

/** The body was larger than `maxBytes` (the `maxBodyBytes` option); the rest was not read. */
export class ResponseTooLargeError extends ExportClientError {
  override name = 'ResponseTooLargeError'
  readonly status: number
  readonly maxBytes: number

  constructor(status: number, maxBytes: number) {
    super(`The HTTP ${status} response body is larger than ${maxBytes} bytes (maxBodyBytes).`)
    this.status = status
    this.maxBytes = maxBytes
  }
}
