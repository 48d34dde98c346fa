/**
 * The typed client of `GET /server-api`, for browsers, Node and Workers alike: it uses only
 * fetch, AbortSignal, setTimeout and TextDecoder. It also carries the display-model check
 * (`checkExportSafety`), so a caller can hold an export to the rules the service publishes by.
 * Consumers import `export-retrieval-service/client`, which
 * is this TypeScript source; its relative imports end in `.js` so that it resolves under every
 * TypeScript module resolution (`bundler`, `node16`, `nodenext`).
 */
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_WAIT_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
  getExport,
  type ExportContent,
  type ExportRequestInit,
  type ExportResult,
  type FetchLike,
  type GetExportOptions,
} from './get-export.js'
export {
  ExportClientError,
  ExportHttpError,
  InvalidIdError,
  InvalidResponseError,
  RateLimitedError,
  ResponseTooLargeError,
  type HttpErrorDetails,
} from './errors.js'
export { MAX_ERROR_BODY_CHARS } from './error-body.js'
export type { DeprecationListener, DeprecationNotice } from './deprecation.js'
export { checkExportSafety } from './check-export-safety.js'
export {
  UNSAFE_REASONS,
  type ExportSafety,
  type ExportSafetyOptions,
  type UnsafeExport,
  type UnsafeReason,
} from '../export-safety/index.js'
export type { RateLimitState, RateLimitWindow } from './response-headers.js'
