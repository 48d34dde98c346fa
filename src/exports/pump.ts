/**
 * Moves a stored export through the tag walker into a response body. KV hands a value over in
 * small chunks (4 KiB in workerd), and each chunk that crosses a JavaScript TransformStream costs
 * far more than the walker's work on it; reading 64 KiB at a time with a BYOB reader makes the
 * per-chunk cost small. Streams that are not byte streams (tests' hand-made ones) are read as
 * they come.
 */
import { TagWalker } from './walker'

/** Bytes gathered from the stored value before they go through the walker. */
export const READ_CHUNK_BYTES = 64 * 1024

/** Streams `source` through a walker for `tag` into `sink`; rejects (aborting both) on failure. */
export async function pumpThroughWalker(
  source: ReadableStream<Uint8Array>,
  tag: string,
  sink: WritableStream<Uint8Array>,
): Promise<void> {
  // Each chunk is read into memory of its own, so the walker may write its output over it.
  const walker = new TagWalker(tag, { reuseInput: true })
  const writer = sink.getWriter()
  try {
    for await (const chunk of largeChunks(source)) {
      const out = walker.push(chunk)
      if (out.length > 0) await writer.write(out)
    }
    walker.finish()
    await writer.close()
  } catch (reason) {
    await Promise.allSettled([writer.abort(reason), source.cancel(reason)])
    throw reason
  }
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
