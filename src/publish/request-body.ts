/**
 * Reads a request body up to a byte limit without ever holding more than the limit: a declared
 * Content-Length over it is refused before reading, and a body without one is counted as it
 * streams in and cancelled at the first byte past the limit.
 *
 * The body is held once. The runtime writes it straight into one buffer (a BYOB read), of the
 * declared length when there is one (the usual case), else grown by doubling. Reading chunks
 * and copying them costs a chunk of garbage per chunk, which at 25 MiB grew the isolate by
 * about as much as the body again before the collector ran.
 */
import { ServiceFailure } from '../http'

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

  // One byte more than declared, so that a longer body shows without growing the buffer.
  const body = new BodyBuffer(declared === null ? INITIAL_BUFFER_BYTES : declared + 1, limitBytes)
  const { read, cancel, inPlace } = readerOf(request.body, body)
  try {
    for (;;) {
      const { done, value } = await read()
      if (value !== undefined) body.took(value, inPlace)
      if (done) break
    }
  } catch (error) {
    await cancel().catch(() => {})
    throw error
  }
  return body.bytes()
}

/**
 * Reads of `stream`: BYOB reads into `body`'s free space, or, for a stream that is not a byte
 * stream (one built in JavaScript), its own chunks, to be copied.
 */
function readerOf(
  stream: ReadableStream<Uint8Array>,
  body: BodyBuffer,
): {
  read: () => Promise<ReadableStreamReadResult<Uint8Array>>
  cancel: () => Promise<void>
  inPlace: boolean
} {
  try {
    const byob = stream.getReader({ mode: 'byob' })
    return { read: () => byob.read(body.spare()), cancel: () => byob.cancel(), inPlace: true }
  } catch {
    const reader = stream.getReader()
    return { read: () => reader.read(), cancel: () => reader.cancel(), inPlace: false }
  }
}

/** Whether a Content-Type header names JSON (`application/json`, any parameters). */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false
  const mediaType = header.split(';', 1)[0]!.trim().toLowerCase()
  return mediaType === 'application/json'
}

/** The bytes of a body so far, in one buffer that grows by doubling up to one byte past the limit. */
class BodyBuffer {
  private buffer: ArrayBuffer
  private length = 0

  constructor(
    capacity: number,
    private readonly limitBytes: number,
  ) {
    this.buffer = new ArrayBuffer(Math.min(capacity, limitBytes + 1))
  }

  /** The free space after the bytes so far, for a BYOB read; grows the buffer when full. */
  spare(): Uint8Array {
    if (this.length === this.buffer.byteLength) this.grow(this.length + 1)
    return new Uint8Array(this.buffer, this.length)
  }

  /**
   * Counts `chunk` in: a BYOB read's result (the same memory as `spare()`, now in a buffer of
   * its own, as a BYOB read moves it) or a chunk to copy. Throws `too_large` past the limit.
   */
  took(chunk: Uint8Array, inPlace: boolean): void {
    const end = this.length + chunk.byteLength
    if (end > this.limitBytes) {
      throw new ServiceFailure({ reason: 'too_large', limitBytes: this.limitBytes })
    }
    if (inPlace) {
      this.buffer = chunk.buffer as ArrayBuffer
    } else {
      if (end > this.buffer.byteLength) this.grow(end)
      new Uint8Array(this.buffer).set(chunk, this.length)
    }
    this.length = end
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.buffer, 0, this.length)
  }

  private grow(atLeast: number): void {
    const capacity = Math.min(this.limitBytes + 1, Math.max(atLeast, this.buffer.byteLength * 2))
    const grown = new Uint8Array(capacity)
    grown.set(new Uint8Array(this.buffer, 0, this.length))
    this.buffer = grown.buffer
  }
}
