/**
 * What the client makes of a deprecation the service announces (docs/api.md#compatibility):
 * `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link: <url>; rel="deprecation"` on any
 * answer, a 200 or an error. The caller hears of it once, through `onDeprecation` or, without
 * one, a single `console.warn`; the request itself goes on as if nothing were announced: a
 * deprecation is never an error until its sunset.
 */
import {
  DEPRECATION_HEADER,
  DEPRECATION_LINK_RELATION,
  LINK_HEADER,
  SUNSET_HEADER,
} from '../contract/wire.js'

/** A deprecation the service announced for a request the client made. */
export interface DeprecationNotice {
  /** When the route or parameter was (or will be) deprecated; null when `Deprecation` is unreadable. */
  deprecatedAt: Date | null
  /** After this it may stop answering (`Sunset`); null when the service gave no date. */
  sunsetAt: Date | null
  /** The page that says what to use instead (`Link`, `rel="deprecation"`); null when none. */
  link: string | null
  /** The URL of the request the announcement came with. */
  url: string
  /** The whole announcement in one sentence, as the default warning prints it. */
  message: string
}

/** Hears each distinct announcement once: what `onDeprecation` of `getExport` takes. */
export type DeprecationListener = (notice: DeprecationNotice) => void

const DEPRECATION_DATE = /^@(-?[0-9]+)$/
const DEPRECATION_LINK = new RegExp(`<([^>]*)>\\s*;[^,]*rel="?${DEPRECATION_LINK_RELATION}"?`, 'i')

/** The announcement of a response, or null when it carries none. */
export function deprecationNotice(headers: Headers, url: string): DeprecationNotice | null {
  const deprecation = headers.get(DEPRECATION_HEADER)?.trim()
  if (deprecation === undefined) return null
  const seconds = DEPRECATION_DATE.exec(deprecation)?.[1]
  const deprecatedAt = seconds === undefined ? null : new Date(Number(seconds) * 1000)
  const sunset = Date.parse(headers.get(SUNSET_HEADER) ?? '')
  const sunsetAt = Number.isNaN(sunset) ? null : new Date(sunset)
  const link = DEPRECATION_LINK.exec(headers.get(LINK_HEADER) ?? '')?.[1] ?? null
  const path = new URL(url).pathname
  const message =
    `export-retrieval-service: ${path} as called is deprecated` +
    (deprecatedAt === null ? '' : ` since ${deprecatedAt.toISOString()}`) +
    (sunsetAt === null ? '' : ` and may stop answering after ${sunsetAt.toISOString()}`) +
    (link === null ? '.' : `; see ${link}`)
  return { deprecatedAt, sunsetAt, link, url, message }
}

/** What each listener heard already; the default warning counts as one listener. */
const heard = new WeakMap<object, Set<string>>()
const DEFAULT_LISTENER: DeprecationListener = (notice) => console.warn(notice.message)

/**
 * Tells `listener` (the default warning when absent) of `notice`, unless it heard the same
 * announcement before: once per listener, not once per request. A listener that throws is
 * reported on the console and does not fail the request.
 */
export function tellOnce(notice: DeprecationNotice, listener?: DeprecationListener): void {
  const target = listener ?? DEFAULT_LISTENER
  const key = `${notice.deprecatedAt?.getTime()}|${notice.sunsetAt?.getTime()}|${notice.link}`
  const seen = heard.get(target) ?? new Set<string>()
  heard.set(target, seen)
  if (seen.has(key)) return
  seen.add(key)
  try {
    target(notice)
  } catch (cause) {
    console.error('export-retrieval-service: onDeprecation threw', cause)
  }
}
