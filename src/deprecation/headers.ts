/**
 * The announcement a response carries for deprecated uses: `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594) and `Link` with `rel="deprecation"`. Several uses in one request (the
 * route and a parameter) announce the earliest deprecation, the earliest sunset, and every link.
 */
import {
  DEPRECATION_HEADER,
  DEPRECATION_LINK_RELATION,
  LINK_HEADER,
  SUNSET_HEADER,
} from '../contract/wire'
import type { DeprecatedUse } from './settings'

/** Sets the announcement of `uses` (at least one) on a header list. */
export function announce(headers: Headers, uses: readonly DeprecatedUse[]): void {
  const deprecatedAt = Math.min(...uses.map((use) => use.deprecatedAt))
  const sunsetAt = Math.min(...uses.map((use) => use.sunsetAt))
  // RFC 9745 section 2.1: a Structured Field Date, whole seconds since the epoch after an `@`.
  headers.set(DEPRECATION_HEADER, `@${Math.floor(deprecatedAt / 1000)}`)
  // RFC 8594 section 3: an HTTP-date (IMF-fixdate), which toUTCString writes.
  headers.set(SUNSET_HEADER, new Date(sunsetAt).toUTCString())
  for (const link of new Set(uses.map((use) => use.link))) {
    headers.append(LINK_HEADER, `<${link}>; rel="${DEPRECATION_LINK_RELATION}"`)
  }
}
