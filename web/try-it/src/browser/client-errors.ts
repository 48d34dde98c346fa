/**
 * The typed client's errors across the Web Worker's boundary. The worker fetches the export
 * (model-worker.ts), and a structured clone keeps an Error's message but not its class nor its
 * fields; so the worker sends what the page shows as plain data, and the page rebuilds the
 * client's error from it, to be told apart by `instanceof` as any caller of the client does.
 */
import {
  ExportHttpError,
  InvalidIdError,
  InvalidResponseError,
  RateLimitedError,
  type HttpErrorDetails,
} from 'export-retrieval-service/client'

/** A failure of the lookup, as data. */
export type PlainError =
  | { name: 'InvalidIdError'; id: string }
  | { name: 'ExportHttpError' | 'RateLimitedError'; message: string; details: HttpErrorDetails }
  | { name: 'InvalidResponseError'; message: string; status: number; body: string }
  | { name: 'Error'; message: string }

/** What crosses to the page of `error`, thrown by the client (or by fetch) in the worker. */
export function plainError(error: unknown): PlainError {
  if (error instanceof InvalidIdError) return { name: 'InvalidIdError', id: error.id }
  if (error instanceof ExportHttpError) {
    const { status, code, retryAfterSeconds, rateLimit, body } = error
    return {
      name: error instanceof RateLimitedError ? 'RateLimitedError' : 'ExportHttpError',
      message: error.message,
      details: { status, code, retryAfterSeconds, rateLimit, body },
    }
  }
  if (error instanceof InvalidResponseError) {
    const { message, status, body } = error
    return { name: 'InvalidResponseError', message, status, body }
  }
  return { name: 'Error', message: error instanceof Error ? error.message : String(error) }
}

/** The client's error that `plain` describes. */
export function clientError(plain: PlainError): Error {
  switch (plain.name) {
    case 'InvalidIdError':
      return new InvalidIdError(plain.id)
    case 'RateLimitedError':
      return new RateLimitedError(plain.message, plain.details)
    case 'ExportHttpError':
      return new ExportHttpError(plain.message, plain.details)
    case 'InvalidResponseError':
      return new InvalidResponseError(plain.message, plain.status, plain.body)
    case 'Error':
      return new Error(plain.message)
  }
}
