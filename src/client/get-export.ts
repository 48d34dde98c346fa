/**
 * `getExport`: one published export by ID, the way spec 7 asks a client to behave. The ID is
 * checked before anything is sent; the status is checked before the body is used; a 429 (or a
 * 503 with `Retry-After`) is waited out, for as long as each response asks, while the total
 * wait stays within `maxWaitSeconds`.
 */
import { isPublicationId } from '../contract/publication-id.js'
import { fieldOf, isRecord, readErrorBody, truncateBody } from './error-body.js'
import {
  ExportHttpError,
  InvalidIdError,
  InvalidResponseError,
  RateLimitedError,
} from './errors.js'
import { SERVER_API_PATH } from '../contract/routes.js'
import { EXPIRES_IN_HEADER } from '../contract/wire.js'
import {
  rateLimitState,
  retryAfterSeconds,
  wholeNumberHeader,
  type RateLimitState,
} from './response-headers.js'

/** One short rate-limit window: a short-window 429 is waited out, a long-window one is not. */
export const DEFAULT_MAX_WAIT_SECONDS = 60
/** Shortest wait between retries, so a `Retry-After: 0` cannot turn into a request storm. */
export const MIN_RETRY_WAIT_SECONDS = 1

/** The request the client makes; the global `fetch` of browsers, Node and Workers accepts it. */
export interface ExportRequestInit {
  method: 'GET'
  headers: Record<string, string>
  /** Spec 4: credentialed mode is not supported; cookies are never needed. */
  credentials: 'omit'
  signal?: AbortSignal
}

/** The `fetch` the client calls. */
export type FetchLike = (url: string, init: ExportRequestInit) => Promise<Response>

/** Options of `getExport`. */
export interface GetExportOptions {
  /** Where the service is, e.g. `https://models.example.com`; a path prefix is kept. */
  baseUrl: string | URL
  /** Replaces `[MODELSERVERTAG]` in the export; the service's default (`model`) when absent. */
  tag?: string
  /** Cancels the request and any wait between retries. */
  signal?: AbortSignal
  /** Most seconds to spend waiting on 429s in total; 0 never waits. Default 60. */
  maxWaitSeconds?: number
  /** A `fetch` to use instead of the global one (tests, proxies, a service binding). */
  fetch?: FetchLike
}

/** The content of an export; its fields beyond `project_id` depend on the model (spec 2). */
export interface ExportContent {
  project_id?: string
  [field: string]: unknown
}

/** What `getExport` resolves to. */
export interface ExportResult<C = ExportContent> {
  /** The export's content, with the tag substituted. */
  content: C
  /** Whole seconds the export has left, or null when the response did not say. */
  expiresInSeconds: number | null
  /** The rate-limit state after this request, or null when the response carried none. */
  rateLimit: RateLimitState | null
  /** Seconds spent waiting on `Retry-After` before this answer. */
  waitedSeconds: number
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
  const url = exportUrl(options.baseUrl, id, options.tag)
  const maxWaitSeconds = options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS
  const send = options.fetch ?? ((input: string, init: ExportRequestInit) => fetch(input, init))
  const init: ExportRequestInit = {
    method: 'GET',
    // Accept is CORS-safelisted: the request stays simple, no preflight.
    headers: { Accept: 'application/json' },
    credentials: 'omit',
  }
  if (options.signal) init.signal = options.signal

  let waitedSeconds = 0
  for (;;) {
    options.signal?.throwIfAborted()
    const response = await send(url, init)
    if (response.status === 200) return readExport<C>(response, waitedSeconds)
    const error = await readHttpError(response)
    const wait = retryableWait(error)
    if (wait === null || waitedSeconds + wait > maxWaitSeconds) throw error
    await sleep(wait * 1000, options.signal)
    waitedSeconds += wait
  }
}

/** `{baseUrl}/server-api?id=...&tag=...`. */
function exportUrl(baseUrl: string | URL, id: string, tag: string | undefined): string {
  const base = String(baseUrl)
  // Relative to the base, so that a base URL with a path of its own keeps it.
  const url = new URL(SERVER_API_PATH.slice(1), base.endsWith('/') ? base : base + '/')
  url.searchParams.set('id', id)
  if (tag !== undefined) url.searchParams.set('tag', tag)
  return url.href
}

async function readExport<C>(response: Response, waitedSeconds: number): Promise<ExportResult<C>> {
  const text = await response.text()
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
    expiresInSeconds: wholeNumberHeader(response.headers, EXPIRES_IN_HEADER),
    rateLimit: rateLimitState(response.headers),
    waitedSeconds,
  }
}

async function readHttpError(response: Response): Promise<ExportHttpError> {
  // A body that breaks off mid-way is still an error response; what arrived is enough.
  const text = await response.text().catch(() => '')
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

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
