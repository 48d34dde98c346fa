/**
 * Compression of answers, decided by the Worker for GET and HEAD alike.
 *
 * Cloudflare's edge compresses JSON and HTML for a client that accepts gzip or br, and workerd
 * (Miniflare, `wrangler dev`) does the same locally; a compressed answer goes out chunked,
 * without Content-Length. A HEAD has no body to compress, so left to the runtime it kept the
 * Content-Length of the uncompressed body, which the GET does not send. So the Worker chooses
 * the encoding itself and says so in `Content-Encoding` on both: the runtime then compresses the
 * GET's body with it (its `encodeBody: "automatic"`), the edge leaves an encoded answer as it is,
 * and a HEAD carries the same headers. Plugins that ask for gzip still save about 6x on an
 * export.
 *
 * The choice follows the rule of the local runtime's copy of the edge's (Miniflare's
 * `ensureAcceptableEncoding`): the client's codings by weight, in the order written for equal
 * weights; the first of `gzip` and `br` wins, `identity` first means none. Coding names match
 * case-insensitively (RFC 9110 section 8.4.1).
 *
 * A client that refuses identity (`identity;q=0`, `*;q=0`) and accepts neither gzip nor br gets
 * the answer uncompressed, as RFC 9110 section 12.5.3 says a server should. The runtime's rule
 * would instead replace every such answer with a bare plain-text 415, after the Worker had
 * counted and logged it; it leaves alone an answer whose `Content-Encoding` it does not apply
 * itself, so the Worker says `Content-Encoding: identity` on those, and the client gets the
 * Worker's own answer (JSON, CORS, rate-limit headers) as logged.
 */
import type { MiddlewareHandler } from 'hono'

/** The encodings the runtime can apply. */
export type ContentCoding = 'gzip' | 'br'

/**
 * The answer's `Content-Encoding`: a coding the runtime applies, `identity` said outright for a
 * client that refuses an answer without one, or null (no header) for an uncompressed answer.
 */
export type EncodingChoice = ContentCoding | 'identity' | null

/** Media types of this Worker's answers that Cloudflare compresses (a part of its list). */
const COMPRESSIBLE_TYPES = new Set(['application/json', 'text/html', 'text/plain'])

/** One element of Accept-Encoding: a coding or `*`, and an optional weight. */
const ELEMENT_ANY_CASE = /^(?<coding>[a-z]+|\*)(?:\s*;\s*q=(?<weight>\d+(?:\.\d+)?))?$/i
/** The same, as the runtime's rule reads it: lower-case names only. */
const ELEMENT_LOWER_CASE = /^(?<coding>[a-z]+|\*)(?:\s*;\s*q=(?<weight>\d+(?:\.\d+)?))?$/

/**
 * Sets `Content-Encoding` (and drops `Content-Length`) on every answer with a compressible body
 * that the client accepts compressed, and `Vary: Accept-Encoding` on every compressible answer.
 */
export function contentEncoding(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const headers = c.res.headers
    if (headers.has('Content-Encoding')) return
    const contentType = headers.get('Content-Type')
    if (contentType === null) {
      // A body-less answer (the 204 preflight): the runtime's rule counts it as compressible.
      if (chosenCoding(clientAcceptEncoding(c.req.raw)) === 'identity') {
        headers.set('Content-Encoding', 'identity')
      }
      return
    }
    if (!isCompressible(contentType)) return
    headers.append('Vary', 'Accept-Encoding')
    const coding = chosenCoding(clientAcceptEncoding(c.req.raw))
    if (coding === null) return
    headers.set('Content-Encoding', coding)
    if (coding !== 'identity') headers.delete('Content-Length')
  }
}

/** The `Content-Encoding` for a client's Accept-Encoding. */
export function chosenCoding(acceptEncoding: string | null): EncodingChoice {
  if (acceptEncoding === null) return null
  const coding = choice(acceptEncoding, true)
  // The runtime's rule reads lower-case names only: where it sees identity refused and nothing
  // it applies (`GZIP, identity;q=0`), it would replace a compressed answer with its bare 415.
  if (coding !== null && coding !== 'identity' && choice(acceptEncoding, false) === 'identity') {
    return 'identity'
  }
  return coding
}

/** The choice for an Accept-Encoding, its coding names read in any case or lower case only. */
function choice(acceptEncoding: string, ignoreCase: boolean): EncodingChoice {
  const element = ignoreCase ? ELEMENT_ANY_CASE : ELEMENT_LOWER_CASE
  const elements: { coding: string; weight: number }[] = []
  for (const part of acceptEncoding.split(',')) {
    const match = element.exec(part.trim())
    if (match?.groups === undefined) continue
    const weight = match.groups.weight === undefined ? 1 : parseFloat(match.groups.weight)
    elements.push({ coding: match.groups.coding!.toLowerCase(), weight })
  }
  // A stable sort: equal weights keep the client's order.
  elements.sort((a, b) => b.weight - a.weight)
  let identityRefused = false
  for (const { coding, weight } of elements) {
    if (weight === 0) {
      if (coding === 'identity' || coding === '*') identityRefused = true
      continue
    }
    if (coding === 'gzip' || coding === 'br') return coding
    if (coding === 'identity') return null
  }
  return identityRefused ? 'identity' : null
}

/**
 * What the client accepts: on Cloudflare the request's own header is rewritten for the Worker
 * and the client's is in `cf.clientAcceptEncoding` (Miniflare sets it too); elsewhere the header.
 */
function clientAcceptEncoding(request: Request): string | null {
  const cf = request.cf as { clientAcceptEncoding?: unknown } | undefined
  const fromEdge = cf?.clientAcceptEncoding
  return typeof fromEdge === 'string' ? fromEdge : request.headers.get('Accept-Encoding')
}

function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE_TYPES.has(contentType.split(';', 1)[0]!.trim().toLowerCase())
}
