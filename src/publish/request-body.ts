/**
 * Reads a request body up to a byte limit without ever holding more than the limit: a declared
 * Content-Length over it is refused before reading, and a body without one is counted as it
 * streams in and cancelled at the first byte past the limit.
 *
 * The body is held once: each chunk is copied into one buffer as it arrives, of the declared
 * length when there is one (the usual case), else grown by doubling. Gathering the chunks and
 * joining them at the end would hold every byte twice at the peak.
 */
import { ServiceFailure } from '../http/errors'

const DECIMAL = /^[0-9]+$/
/** First size of the buffer of a body sent without a Content-Length. */
const INITIAL_BUFFER_BYTES = 64 * 1024

/** The whole body as bytes; throws `too_large` past `limitBytes`. */
export async function readBodyWithin(request: Request, limitBytes: number): Promise<Uint8Array> {
  const header = request.headers.get('Content-Length')
  const declared = header !== null && DECIMAL.test(header) ? Number(header) : null
  if (declared !== null && declared > limitBytes) {
    throw new ServiceFailure({ reason: 'too_large', limitBytes })
  }
  if (request.body === null) return new Uint8Array(0)

  const reader = request.body.getReader()
  let buffer = new Uint8Array(declared ?? Math.min(INITIAL_BUFFER_BYTES, limitBytes))
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const end = total + value.byteLength
    if (end > limitBytes) {
      await reader.cancel()
      throw new ServiceFailure({ reason: 'too_large', limitBytes })
    }
    if (end > buffer.length) {
      const grown = new Uint8Array(Math.min(limitBytes, Math.max(end, buffer.length * 2)))
      grown.set(buffer.subarray(0, total))
      buffer = grown
    }
    buffer.set(value, total)
    total = end
  }
  return buffer.subarray(0, total)
}

/** Whether a Content-Type header names JSON (`application/json`, any parameters). */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false
  const mediaType = header.split(';', 1)[0]!.trim().toLowerCase()
  return mediaType === 'application/json'
}
