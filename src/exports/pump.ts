/**
 * Moves a stored export through the tag walker into a response body. KV hands a value over in
 * small chunks (4 KiB in workerd), and each chunk that crosses a JavaScript TransformStream costs
 * far more than the walker's work on it; reading 256 KiB at a time with a BYOB reader makes the
 * per-chunk cost small. Each block read and written still costs tens of microseconds of workerd
 * CPU (64 KiB blocks cost about 0.4 ms more per 457 KiB GET); the trade-off accepted is 256 KiB
 * of memory per response in flight. Streams that are not byte streams (tests' hand-made ones)
 * are read as they come.
 */
import { TagWalker } from './walker'

/** Bytes gathered from the stored value before they go through the walker. */
export const READ_CHUNK_BYTES = 256 * 1024

/**
 * `sink` refused a write or the close: its reader is gone (a client that disconnected
 * mid-body), which says nothing about the source.
 */
export class SinkClosedError extends Error {
  override name = 'SinkClosedError'
}

/**
 * Streams `source`, which should hold `expectedBytes`, through a walker for `tag` into `sink`;
 * rejects (aborting both) on failure, with `SinkClosedError` when it was the sink that failed.
 */
export async function pumpThroughWalker(
  source: ReadableStream<Uint8Array>,
  expectedBytes: number,
  tag: string,
  sink: WritableStream<Uint8Array>,
): Promise<void> {
  // Each chunk is read into memory of its own, so the walker may write its output over it.
  const walker = new TagWalker(tag, { reuseInput: true })
  const writer = sink.getWriter()
  let read = 0
  try {
    for await (const chunk of largeChunks(source)) {
      read += chunk.length
      const out = walker.push(chunk)
      // After the walker, so that a value that is also malformed is logged as such.
      if (read > expectedBytes) throw sizeMismatch(read, expectedBytes)
      if (out.length > 0) await toSink(writer.write(out))
    }
    walker.finish()
    // The sink's fixed length would abort the transfer anyway; this says why, for the log.
    if (read !== expectedBytes) throw sizeMismatch(read, expectedBytes)
    await toSink(writer.close())
  } catch (reason) {
    await Promise.allSettled([writer.abort(reason), source.cancel(reason)])
    throw reason
  }
}

function sizeMismatch(read: number, expected: number): Error {
  const amount = read > expected ? `more than ${expected}` : `${read}`
  return new Error(`the stored value has ${amount} bytes; its metadata says ${expected}`)
}

/** `step` of the sink, its failure wrapped in `SinkClosedError`. */
function toSink(step: Promise<void>): Promise<void> {
  return step.catch((cause: unknown) => {
    throw new SinkClosedError(`the sink failed: ${String(cause)}`, { cause })
  })
}

async function* largeChunks(source: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let byob: ReadableStreamBYOBReader | null = null
  try {
    byob = source.getReader({ mode: 'byob' })
  } catch {
    // Not a byte stream: fall through to its own chunks.
  }
  if (byob === null) {
    const reader = source.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        if (value.length > 0) yield value
      }
    } finally {
      reader.releaseLock()
    }
  }
  try {
    for (;;) {
      const { done, value } = await byob.readAtLeast(
        READ_CHUNK_BYTES,
        new Uint8Array(READ_CHUNK_BYTES),
      )
      if (value !== undefined && value.length > 0) yield value
      if (done) return
    }
  } finally {
    byob.releaseLock()
  }
}
