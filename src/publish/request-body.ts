/**
 * Reads a request body up to a byte limit without ever holding more than the limit: a declared
 * Content-Length over it is refused before reading, and a body without one is counted as it
 * streams in and cancelled at the first byte past the limit.
 */
import { concatBytes } from '../bytes'
import { ServiceFailure } from '../http/errors'

const DECIMAL = /^[0-9]+$/

/** The whole body as bytes; throws `too_large` past `limitBytes`. */
export async function readBodyWithin(request: Request, limitBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get('Content-Length')
  if (declared !== null && DECIMAL.test(declared) && Number(declared) > limitBytes) {
    throw new ServiceFailure({ reason: 'too_large', limitBytes })
  }
  if (request.body === null) return new Uint8Array(0)

  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limitBytes) {
      await reader.cancel()
      throw new ServiceFailure({ reason: 'too_large', limitBytes })
    }
    chunks.push(value)
  }
  return concatBytes(chunks)
}

/** Whether a Content-Type header names JSON (`application/json`, any parameters). */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false
  const mediaType = header.split(';', 1)[0]!.trim().toLowerCase()
  return mediaType === 'application/json'
}
