/**
 * Reads what an error response says. Both forms the API contract allows: `{"error": "<message>",
 * "code": ..., ...}` (this service, except on 429; the editor's original service without `code`)
 * and `{"error": {"code", "message", "retryAfterSeconds"}}` (this service's 429); and anything at
 * all (an HTML 502 page, an empty body) from the infrastructure in between.
 */

/** An error body longer than this is cut: it is kept for diagnostics, not for parsing. */
export const MAX_ERROR_BODY_CHARS = 4096

/** What could be read from an error body. */
export interface ErrorBody {
  code: string | null
  /** The body's own message, or null when it had none (not JSON, empty, no `error`). */
  message: string | null
  retryAfterSeconds: number | null
}

/** Parses an error body's text; never throws. */
export function readErrorBody(text: string): ErrorBody {
  const none: ErrorBody = { code: null, message: null, retryAfterSeconds: null }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return none
  }
  const error = fieldOf(parsed, 'error')
  // The string form keeps its other fields beside `error`, the object form inside it.
  if (typeof error === 'string') return { ...fieldsOf(parsed), message: error }
  if (!isRecord(error)) return none
  const message = fieldOf(error, 'message')
  return { ...fieldsOf(error), message: typeof message === 'string' ? message : null }
}

/** `code` and `retryAfterSeconds` of the object that holds them, when well-typed. */
function fieldsOf(holder: unknown): Omit<ErrorBody, 'message'> {
  const code = fieldOf(holder, 'code')
  const retry = fieldOf(holder, 'retryAfterSeconds')
  return {
    code: typeof code === 'string' ? code : null,
    retryAfterSeconds:
      typeof retry === 'number' && Number.isSafeInteger(retry) && retry >= 0 ? retry : null,
  }
}

/** A body cut to `MAX_ERROR_BODY_CHARS`. */
export function truncateBody(text: string): string {
  return text.length > MAX_ERROR_BODY_CHARS ? text.slice(0, MAX_ERROR_BODY_CHARS) + '…' : text
}

/** A field of a JSON object, or undefined when the value is not one. */
export function fieldOf(value: unknown, name: string): unknown {
  return isRecord(value) ? value[name] : undefined
}

/** Whether a value is a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
