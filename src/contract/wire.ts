/**
 * The wire contract: what a caller of the service sees and may rely on, written once. The server
 * (src/http/, src/exports/, src/publish/), the published client (src/client/) and the OpenAPI
 * document (src/openapi/) import these names and limits instead of typing them again, so they
 * cannot drift apart. Pure data: the client bundles it (dependency-cruiser checks that it stays
 * the only part of the service the client imports, beside the ID rule).
 */

/** Methods of the public endpoint (docs/api.md#cross-origin-access). */
export const PUBLIC_METHODS = 'GET, HEAD, OPTIONS'
/** Methods of `/editor-api/exports` (publishing). */
export const EDITOR_EXPORTS_METHODS = 'POST'
/** Methods of `/editor-api/status`. */
export const EDITOR_STATUS_METHODS = 'GET'

/** Whole seconds an export has left (a duration, like `X-RateLimit-Reset`). */
export const EXPIRES_IN_HEADER = 'X-Export-Expires-In'
/**
 * The tag written into the export: the `tag` asked for as sanitized (docs/api.md#parameters), or
 * the default tag. A caller whose tag lost characters, or was cut, reads here what its parts carry.
 */
export const TAG_HEADER = 'X-Export-Tag'
/** Whole seconds to wait before retrying (RFC 9110 section 10.2.3). */
export const RETRY_AFTER_HEADER = 'Retry-After'
/** The challenge of an editor API request without a valid token (RFC 6750 section 3). */
export const EDITOR_API_CHALLENGE = 'Bearer realm="editor-api"'
/** The rate-limit headers: the window nearest exhaustion, then every window's state and policy. */
export const RATE_LIMIT_HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
  state: 'RateLimit',
  policy: 'RateLimit-Policy',
} as const

/**
 * RFC 9745: the route, or the use of a parameter, this response answers is deprecated, since the
 * moment it gives as `@<unix-seconds>` (docs/api.md#compatibility).
 */
export const DEPRECATION_HEADER = 'Deprecation'
/** RFC 8594: the HTTP-date after which a deprecated route or parameter may stop answering. */
export const SUNSET_HEADER = 'Sunset'
/** RFC 8288 web links; with `rel="deprecation"` (RFC 9745 section 4) the page that says what to use instead. */
export const LINK_HEADER = 'Link'
/** The link relation of a deprecation's documentation (RFC 9745 section 4). */
export const DEPRECATION_LINK_RELATION = 'deprecation'

/** Our response headers browser scripts may read (listed in docs/api.md#cross-origin-access). */
export const EXPOSED_HEADERS = [
  RETRY_AFTER_HEADER,
  RATE_LIMIT_HEADERS.limit,
  RATE_LIMIT_HEADERS.remaining,
  RATE_LIMIT_HEADERS.reset,
  RATE_LIMIT_HEADERS.state,
  RATE_LIMIT_HEADERS.policy,
  EXPIRES_IN_HEADER,
  'Content-Length',
  DEPRECATION_HEADER,
  SUNSET_HEADER,
  LINK_HEADER,
  TAG_HEADER,
]

/** The largest export: Workers KV's largest value, 25 MiB. */
export const MAX_EXPORT_BYTES = 25 * 1024 * 1024
/**
 * The deepest nesting of arrays and objects an export may have. Real exports nest under 10
 * levels (their SNBT sits inside strings); the limit keeps the JSON splicer's bracket stack and any
 * consumer's parser far from a stack limit, so 100,000 levels are a 400 and never a crash.
 */
export const MAX_NESTING_DEPTH = 256
/** Spec 4: the sanitized tag is at most this many characters long. */
export const MAX_TAG_LENGTH = 100
/** A missing tag, or one with nothing left after sanitizing, becomes this unless `DEFAULT_TAG` is set. */
export const DEFAULT_TAG = 'model'

/**
 * Why a `DEFAULT_TAG` setting cannot be used, or null when it is a tag (1 to 100 ASCII letters,
 * digits, `_` or `-`) as it stands. The Worker refuses to start with this message, and `npm start`
 * gives it before wrangler starts (scripts/start.mjs, which imports this file as it is).
 */
export function defaultTagProblem(value: string): string | null {
  if (new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TAG_LENGTH}}$`).test(value)) return null
  return `DEFAULT_TAG must be a tag: 1 to ${MAX_TAG_LENGTH} ASCII letters, digits, "_" or "-" (for example "${DEFAULT_TAG}" or "bde"); got ${JSON.stringify(value)}.`
}

/**
 * The error catalogue: every `code` an error body may carry and its HTTP status. Codes with
 * `retry` come with `Retry-After` and a `retryAfterSeconds` field. Every body but the 429's is
 * `{"error": "<message>", "code": ..., ...}`; the 429's is `{"error": {"code", "message",
 * "retryAfterSeconds"}}` (src/http/errors.ts).
 */
export const ERROR_CODES = {
  invalid_id: { status: 400 },
  invalid_json: { status: 400 },
  invalid_export: { status: 400 },
  invalid_quick_command: { status: 400 },
  unsafe_export: { status: 400 },
  unauthorized: { status: 401 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  expired: { status: 410 },
  too_large: { status: 413 },
  unsupported_media_type: { status: 415 },
  rate_limited: { status: 429, retry: true },
  internal: { status: 500 },
  not_ready: { status: 503, retry: true },
  unavailable: { status: 503, retry: true },
  capacity: { status: 503, retry: true },
} as const satisfies Record<string, { status: number; retry?: true }>

/** A public error code. */
export type ErrorCode = keyof typeof ERROR_CODES
/** An HTTP status an error response may have. */
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]['status']
