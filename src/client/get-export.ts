/**
 * `getExport`: one published export by ID, the way the API asks a client to behave. The ID is
 * checked before anything is sent; the status is checked before the body is used; a 429 (or a
 * 503 with `Retry-After`) is waited out, for as long as each response asks, while the total
 * wait stays within `maxWaitSeconds`. Each request has a timeout and a bound on its body's size,
 * the same defaults as the Java client's.
 */
import { isPublicationId } from '../contract/publication-id.js'
import { copyTag } from './copy-tag.js'
import { readBoundedText } from './body.js'
import {
  deprecationNotice,
  tellOnce,
  type DeprecationListener,
  type DeprecationNotice,
} from './deprecation.js'
import {
  fieldOf,
  isRecord,
  MAX_ERROR_BODY_CHARS,
  readErrorBody,
  truncateBody,
} from './error-body.js'
import {
  ExportHttpError,
  InvalidIdError,
  InvalidResponseError,
  RateLimitedError,
} from './errors.js'
import { SERVER_API_PATH } from '../contract/routes.js'
import { EXPIRES_IN_HEADER, TAG_HEADER } from '../contract/wire.js'
import {
  rateLimitState,
  retryAfterSeconds,
  wholeNumberHeader,
  type RateLimitState,
} from './response-headers.js'
import { requestSignal, sleep } from './timers.js'

/** One short rate-limit window: a short-window 429 is waited out, a long-window one is not. */
export const DEFAULT_MAX_WAIT_SECONDS = 60
/** Shortest wait between retries, so a `Retry-After: 0` cannot turn into a request storm. */
export const MIN_RETRY_WAIT_SECONDS = 1
/** Seconds one request may take, from sending it to its body's last byte (the Java client's). */
export const DEFAULT_TIMEOUT_SECONDS = 10
/**
 * The largest body accepted: 32 MiB. The service stores exports of at most 25 MiB; substitution
 * makes a body longer only where the tag is longer than the 16-byte placeholder, so this holds
 * every real export (300-500 KB) with any tag, and a 25 MiB one with a tag of up to 20
 * characters.
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024
/** Bytes of an error body read at most: what is kept of it is `MAX_ERROR_BODY_CHARS` anyway. */
const MAX_ERROR_BODY_BYTES = MAX_ERROR_BODY_CHARS * 4

/** The request the client makes; the global `fetch` of browsers, Node and Workers accepts it. */
export interface ExportRequestInit {
  method: 'GET'
  headers: Record<string, string>
  /** Credentialed mode is not supported; cookies are never needed (docs/api.md#cross-origin-access). */
  credentials: 'omit'
  signal?: AbortSignal
}

/** The `fetch` the client calls. */
export type FetchLike = (url: string, init: ExportRequestInit) => Promise<Response>

/** Options of `getExport`. */
export interface GetExportOptions {
  /** Where the service is, e.g. `https://models.example.com`; a path prefix is kept. */
  baseUrl: string | URL
  /**
   * Replaces `[MODELSERVERTAG]` in the export. Absent: a tag unique to this copy (`copy_` and 24
   * hex digits, `ExportResult.tag`), so that no other model's frames reach its parts; `null`: no
   * tag, the service's default `model`, which every caller that sends none shares
   * (docs/api.md, "Isolation between models").
   */
  tag?: string | null
  /** Cancels the request and any wait between retries. */
  signal?: AbortSignal
  /** Most seconds to spend waiting on 429s in total; 0 never waits; `Infinity` has no bound. Default 60. */
  maxWaitSeconds?: number
  /**
   * Most seconds one request may take, from sending it to the last byte of its body; waits
   * between retries do not count. Over it, the call rejects with a `DOMException` named
   * `TimeoutError`. Default 10; `Infinity` for none.
   */
  timeoutSeconds?: number
  /** The largest response body accepted, in bytes; a larger one throws `ResponseTooLargeError`. Default 32 MiB. */
  maxBodyBytes?: number
  /** A `fetch` to use instead of the global one (tests, proxies, a service binding). */
  fetch?: FetchLike
  /**
   * Hears that the service announced the route, or a parameter the client sent, deprecated
   * (`Deprecation`, `Sunset`, `Link`): once per listener for each announcement, however many
   * requests carry it. Pass the same function on every call. Without it, the client prints one
   * `console.warn` per announcement. Never an error: the request goes on.
   */
  onDeprecation?: DeprecationListener
}

/** An export's content; fields beyond `project_id` depend on the model (docs/api.md#the-body). */
export interface ExportContent {
  project_id?: string
  [field: string]: unknown
}

/** What `getExport` resolves to. */
export interface ExportResult<C = ExportContent> {
  /** The export's content, with the tag substituted. */
  content: C
  /** The tag it was fetched with, as sent, or null when none was sent. */
  tag: string | null
  /**
   * The tag the service wrote into `content` (its parts' tags begin with it), as it said in
   * `X-Export-Tag`: `tag` as sanitized (only ASCII letters, digits, `_` and `-`, at most 100),
   * or the deployment's default tag when none was sent or nothing was left of it. It differs
   * from `tag` when sanitizing changed it. Null when the response did not say (a service older
   * than API 1.2.0, or a proxy that dropped the header).
   */
  servedTag: string | null
  /** Whole seconds the export has left, or null when the response did not say. */
  expiresInSeconds: number | null
  /** The rate-limit state after this request, or null when the response carried none. */
  rateLimit: RateLimitState | null
  /** Seconds spent waiting on `Retry-After` before this answer. */
  waitedSeconds: number
  /** The deprecation this answer announced, or null: every time, unlike `onDeprecation`. */
  deprecation: DeprecationNotice | null
}

/**
 * Fetches the export published under `id`. Throws `InvalidIdError` without a request for a
 * malformed ID, `RateLimitedError` when the wait a 429 asks for does not fit in
 * `maxWaitSeconds`, `ExportHttpError` for any other status, `InvalidResponseError` for a 200
 * that is not an export; network errors and aborts pass through.
 */
export async function getExport<C = ExportContent>(
  id: string,
  options: GetExportOptions,
): Promise<ExportResult<C>> {
  if (!isPublicationId(id)) throw new InvalidIdError(id)
  const tag = options.tag === undefined ? copyTag() : options.tag
  const url = exportUrl(options.baseUrl, id, tag)
  const maxWaitSeconds = numberOption(
    'maxWaitSeconds',
    options.maxWaitSeconds,
    DEFAULT_MAX_WAIT_SECONDS,
    'allowed',
  )
  const timeoutSeconds = numberOption(
    'timeoutSeconds',
    options.timeoutSeconds,
    DEFAULT_TIMEOUT_SECONDS,
    'refused',
  )
  const maxBodyBytes = numberOption(
    'maxBodyBytes',
    options.maxBodyBytes,
    DEFAULT_MAX_BODY_BYTES,
    'refused',
  )
  const send = options.fetch ?? ((input: string, init: ExportRequestInit) => fetch(input, init))
  const init: ExportRequestInit = {
    method: 'GET',
    // Accept is CORS-safelisted: the request stays simple, no preflight.
    headers: { Accept: 'application/json' },
    credentials: 'omit',
  }

  let waitedSeconds = 0
  for (;;) {
    options.signal?.throwIfAborted()
    const request = requestSignal(options.signal, timeoutSeconds)
    let error: ExportHttpError
    try {
      const response = await send(url, { ...init, signal: request.signal })
      const deprecation = deprecationNotice(response.headers, url)
      if (deprecation !== null) tellOnce(deprecation, options.onDeprecation)
      if (response.status === 200) {
        const text = await readBoundedText(response, maxBodyBytes, request.signal, 'throw')
        return { ...readExport<C>(response, text, waitedSeconds), tag, deprecation }
      }
      error = await readHttpError(response, request.signal)
    } finally {
      request.done()
    }
    const wait = retryableWait(error)
    if (wait === null || waitedSeconds + wait > maxWaitSeconds) throw error
    await sleep(wait * 1000, options.signal)
    waitedSeconds += wait
  }
}

/** `{baseUrl}/server-api?id=...&tag=...`. */
function exportUrl(baseUrl: string | URL, id: string, tag: string | null): string {
  const base = String(baseUrl)
  // Relative to the base, so that a base URL with a path of its own keeps it.
  const url = new URL(SERVER_API_PATH.slice(1), base.endsWith('/') ? base : base + '/')
  url.searchParams.set('id', id)
  if (tag !== null) url.searchParams.set('tag', tag)
  return url.href
}

/** A number option: `fallback` when absent; a RangeError when NaN, negative, or 0 unless allowed. */
function numberOption(
  name: string,
  value: number | undefined,
  fallback: number,
  zero: 'allowed' | 'refused',
): number {
  if (value === undefined) return fallback
  if (!(value > 0 || (value === 0 && zero === 'allowed'))) {
    const least = zero === 'allowed' ? 'at least 0' : 'more than 0'
    throw new RangeError(`${name} must be a number ${least}, got ${value}.`)
  }
  return value
}

function readExport<C>(
  response: Response,
  text: string,
  waitedSeconds: number,
): Omit<ExportResult<C>, 'deprecation' | 'tag'> {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    throw new InvalidResponseError('The 200 response is not JSON.', 200, truncateBody(text))
  }
  const content = fieldOf(document, 'content')
  if (!isRecord(content)) {
    throw new InvalidResponseError(
      'The 200 response has no "content" object.',
      200,
      truncateBody(text),
    )
  }
  return {
    content: content as C,
    servedTag: response.headers.get(TAG_HEADER),
    expiresInSeconds: wholeNumberHeader(response.headers, EXPIRES_IN_HEADER),
    rateLimit: rateLimitState(response.headers),
    waitedSeconds,
  }
}

async function readHttpError(response: Response, signal: AbortSignal): Promise<ExportHttpError> {
  // A body that breaks off mid-way is still an error response; what arrived is enough. A
  // timeout or an abort is not: it goes to the caller.
  const text = await readBoundedText(response, MAX_ERROR_BODY_BYTES, signal, 'cut').catch(
    (reason: unknown) => {
      if (signal.aborted) throw reason
      return ''
    },
  )
  const body = readErrorBody(text)
  const details = {
    status: response.status,
    code: body.code,
    retryAfterSeconds: retryAfterSeconds(response.headers) ?? body.retryAfterSeconds,
    rateLimit: rateLimitState(response.headers),
    body: truncateBody(text),
  }
  const said = body.message ?? describeBody(text)
  if (response.status === 429) {
    const wait =
      details.retryAfterSeconds === null ? '' : ` Retry after ${details.retryAfterSeconds} s.`
    return new RateLimitedError(`Rate limited (HTTP 429): ${said}${wait}`, details)
  }
  return new ExportHttpError(`HTTP ${response.status}: ${said}`, details)
}

/** The seconds to wait before retrying, or null when the error is not worth retrying. */
function retryableWait(error: ExportHttpError): number | null {
  // A 503 with Retry-After is this service's "just published, not visible here yet".
  if (error.status !== 429 && error.status !== 503) return null
  if (error.retryAfterSeconds === null) return null
  return Math.max(MIN_RETRY_WAIT_SECONDS, error.retryAfterSeconds)
}

function describeBody(text: string): string {
  return text.trim() === '' ? 'the body is empty.' : 'the body is not a JSON error.'
}
