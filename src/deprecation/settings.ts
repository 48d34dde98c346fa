/**
 * The `DEPRECATIONS` setting: which routes, or uses of a query parameter, are deprecated, since
 * when, until when, and where the reader learns what to use instead. A JSON array, empty (or
 * unset) by default: nothing is deprecated.
 *
 *   [{"use": "/server-api?tag", "deprecated": "2027-01-04", "sunset": "2027-07-05",
 *     "link": "https://models.example.com/docs/api#compatibility"}]
 *
 * `use` is a public route (`/server-api`) or a route and one of its query parameters
 * (`/server-api?tag`: a request that names `tag` at all). A setting that cannot work stops the
 * Worker at startup (src/index.ts), like `DEFAULT_TAG`, rather than announcing nothing.
 */
import type { Env } from '../config'
import { OPENAPI_PATH, SERVER_API_PATH } from '../contract/routes'

/** One deprecated use, as read from the setting. */
export interface DeprecatedUse {
  /** As written in the setting, and as the log and metrics name it: `/server-api?tag`. */
  use: string
  /** The route, without a trailing slash. */
  route: string
  /** The query parameter whose use is deprecated, or null when the whole route is. */
  parameter: string | null
  /** When the use is, or was, deprecated (ms since the epoch): `Deprecation`. */
  deprecatedAt: number
  /** After this it may stop answering (ms since the epoch): `Sunset`. */
  sunsetAt: number
  /** The page that says what to use instead: `Link: <...>; rel="deprecation"`. */
  link: string
}

const SETTING = 'DEPRECATIONS'
/** The routes a caller outside can use; the editor API is ours and changes with the editor. */
const PUBLIC_ROUTES: readonly string[] = [SERVER_API_PATH, OPENAPI_PATH]
const USE = /^(\/[a-z0-9./_-]*?)\/?(?:\?([A-Za-z0-9_.-]+))?$/
/** A day (`2027-07-05`) or a moment in UTC (`2027-07-05T12:00:00Z`). */
const MOMENT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z)?$/

/** The last setting read and what it meant: parsed once per isolate. */
let cached: { raw: string; uses: readonly DeprecatedUse[] } | undefined

/** The deprecated uses the deployment announces; none unless `DEPRECATIONS` is set. */
export function deprecatedUses(env: Env): readonly DeprecatedUse[] {
  const raw = (env.DEPRECATIONS ?? '').trim()
  if (raw === '') return []
  if (cached?.raw !== raw) cached = { raw, uses: parseDeprecations(raw) }
  return cached.uses
}

/** Reads the setting's text, or throws naming what is wrong with it. */
export function parseDeprecations(raw: string): DeprecatedUse[] {
  let entries: unknown
  try {
    entries = JSON.parse(raw)
  } catch {
    throw invalid('must be a JSON array of deprecations, got text that is not JSON')
  }
  if (!Array.isArray(entries)) throw invalid('must be a JSON array of deprecations')
  return entries.map(readEntry)
}

function readEntry(entry: unknown, index: number): DeprecatedUse {
  const where = `entry ${index}:`
  if (typeof entry !== 'object' || entry === null) throw invalid(`${where} not an object`)
  const { use, deprecated, sunset, link } = entry as Record<string, unknown>
  const match = typeof use === 'string' ? USE.exec(use) : null
  const route = match?.[1]
  if (match === null || route === undefined || !PUBLIC_ROUTES.includes(route)) {
    throw invalid(
      `${where} "use" must be ${PUBLIC_ROUTES.join(' or ')}, or one with "?<parameter>"`,
    )
  }
  const deprecatedAt = moment(deprecated, `${where} "deprecated"`)
  const sunsetAt = moment(sunset, `${where} "sunset"`)
  // RFC 9745 section 2: a sunset before the deprecation makes no sense.
  if (sunsetAt < deprecatedAt) throw invalid(`${where} "sunset" is before "deprecated"`)
  if (typeof link !== 'string' || !/^https?:\/\/[^\s<>"]+$/.test(link)) {
    throw invalid(`${where} "link" must be an http(s) URL`)
  }
  return { use: use as string, route, parameter: match[2] ?? null, deprecatedAt, sunsetAt, link }
}

function moment(value: unknown, what: string): number {
  const time = typeof value === 'string' && MOMENT.test(value) ? Date.parse(value) : NaN
  if (Number.isNaN(time))
    throw invalid(`${what} must be a date, 2027-07-05 or 2027-07-05T12:00:00Z`)
  return time
}

function invalid(problem: string): Error {
  return new Error(`${SETTING} ${problem} (see docs/api.md#compatibility)`)
}
