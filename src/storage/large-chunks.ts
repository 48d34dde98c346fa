/**
 * Reading a stream in large chunks. KV hands a value over in small chunks (4 KiB in workerd), and
 * each chunk that crosses JavaScript costs far more than the work done on it; a BYOB reader
 * gathering many of them at once keeps that small. Used by the read path
 * (src/exports/substituted-body.ts) and by the allocator keeping a grace copy
 * (src/ids/id-allocator.ts).
 */
import { withTimeout } from '../timeout'

/** A read of the stored value that brings nothing for this long fails it (a storage failure). */
export const READ_STALL_TIMEOUT_MS = 5000

/** `read`, failed with `TimeoutError` if it brings nothing within `READ_STALL_TIMEOUT_MS`. */
function stalling<T>(read: Promise<T>, what: string): Promise<T> {
  return withTimeout(read, READ_STALL_TIMEOUT_MS, what)
}

/** How `largeChunks` reads. */
export interface LargeChunksOptions {
  /** Names the read in the error of a stall. */
  what?: string
  /**
   * Read each chunk into the memory of the one before, once the caller asks for the next (a
   * byte stream only), for a caller done with each chunk by then: no chunk-sized garbage piles
   * up between collections.
   */
  reuseBuffer?: boolean
}

/**
 * `source` in chunks of `bytes` (the last may be shorter), each in memory of its own unless
 * `reuseBuffer`; a read that brings nothing for `READ_STALL_TIMEOUT_MS` fails.
 */
export async function* largeChunks(
  source: ReadableStream<Uint8Array>,
  bytes: number,
  { what = 'KV value read', reuseBuffer = false }: LargeChunksOptions = {},
): AsyncGenerator<Uint8Array> {
  let byob: ReadableStreamBYOBReader | null = null
  try {
    byob = source.getReader({ mode: 'byob' })
  } catch {
    // Not a byte stream: fall through to its own chunks.
  }
  // A stream read to its end stays locked: releasing a reader rejects its `closed` promise with
  // a new TypeError, stack trace and all (about 15 us in workerd, on every GET), and an ended
  // stream has nothing left for another reader. One left early is released, so it can be
  // cancelled.
  let ended = false
  if (byob === null) {
    const reader = source.getReader()
    try {
      for (;;) {
        const { done, value } = await stalling(reader.read(), what)
        ended = done
        if (done) return
        if (value.length > 0) yield value
      }
    } finally {
      if (!ended) reader.releaseLock()
    }
  }
  let buffer: ArrayBuffer | null = null
  try {
    for (;;) {
      const into = new Uint8Array(buffer ?? new ArrayBuffer(bytes))
      const { done, value } = await stalling(byob.readAtLeast(bytes, into), what)
      ended = done
      if (value !== undefined && value.length > 0) yield value
      if (done) return
      // A BYOB read moves the memory it fills into a new buffer: the chunk's.
      if (reuseBuffer && value !== undefined) buffer = value.buffer as ArrayBuffer
    }
  } finally {
    if (!ended) byob.releaseLock()
  }
}
