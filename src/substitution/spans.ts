/**
 * Writing a chunk out with some of its spans replaced by the tag: the one output step both
 * finders share (finder-substitution.ts), and the options a substitution takes.
 */

/** Options of `JsonSplicer` and `PlaceholderSplicer`. */
export interface SubstitutionOptions {
  /**
   * Write the output over each pushed chunk (when the tag is no longer than a placeholder),
   * sparing a copy. Only for chunks nobody reads afterwards, as in a stream.
   */
  reuseInput?: boolean
  /**
   * Write the output of a growing tag into one buffer reused from chunk to chunk, sparing an
   * allocation per chunk (and the garbage a stream of them leaves). Only when the caller is done
   * with each output before pushing the next chunk, as a pump that awaits each write is.
   */
  reuseOutput?: boolean
}

/** One buffer that the output of consecutive chunks is written into. */
export class ReusedOutput {
  private buffer = new Uint8Array(0)

  /** `length` bytes of the buffer, grown when it is shorter; the previous output is gone. */
  take(length: number): Uint8Array {
    if (this.buffer.length < length) this.buffer = new Uint8Array(length)
    return this.buffer.subarray(0, length)
  }
}

/** Spans shorter than this are copied byte by byte: cheaper than a `subarray` view and `set`. */
const SMALL_COPY_BYTES = 48

/** Where `replaceSpans` may write its output. */
export interface ReplaceOptions {
  /** Nobody reads `buf` afterwards: it may be written over. */
  owned: boolean
  /** The tag is no longer than any span, so writing over `buf` never overtakes reading. */
  shrinks: boolean
  /** A buffer reused from call to call for output that cannot be written over `buf`. */
  into: ReusedOutput | null
}

/**
 * `buf[0, end)` with each `[start, end)` pair of `found` (in order, not overlapping) replaced by
 * `tag`. Written over `buf` itself when `owned` and `shrinks`, else into a new buffer (or
 * `into`'s). Returns a view of `buf` when nothing is replaced.
 */
export function replaceSpans(
  buf: Uint8Array,
  end: number,
  found: readonly number[],
  tag: Uint8Array,
  { owned, shrinks, into }: ReplaceOptions,
): Uint8Array {
  if (found.length === 0) return end === buf.length ? buf : buf.subarray(0, end)
  if (!shrinks) return join(buf, end, found, tag, into)
  // One native copy, then moves within it, beats a `subarray` and a `set` per span.
  return compact(owned ? buf : buf.slice(0, end), end, found, tag)
}

/** `buf[0, end)` with each `found` span replaced by `tag`, in a new buffer or `into`'s. */
function join(
  buf: Uint8Array,
  end: number,
  found: readonly number[],
  tag: Uint8Array,
  into: ReusedOutput | null,
): Uint8Array {
  const pairs = found.length
  let removed = 0
  for (let k = 0; k < pairs; k += 2) removed += found[k + 1]! - found[k]!
  const length = end - removed + (pairs / 2) * tag.length
  const out = into === null ? new Uint8Array(length) : into.take(length)
  let from = 0
  let o = 0
  for (let k = 0; k < pairs; k += 2) {
    o = copy(buf, from, found[k]!, out, o)
    o = copy(tag, 0, tag.length, out, o)
    from = found[k + 1]!
  }
  copy(buf, from, end, out, o)
  return out
}

/**
 * `buf[0, end)` with each `found` span replaced by `tag`, written over `buf` itself: the tag is
 * never longer than a span, so writing never overtakes reading.
 */
function compact(
  buf: Uint8Array,
  end: number,
  found: readonly number[],
  tag: Uint8Array,
): Uint8Array {
  const pairs = found.length
  let o = found[0]!
  for (let k = 0; k < pairs; k += 2) {
    o = copy(tag, 0, tag.length, buf, o)
    const from = found[k + 1]!
    const to = k + 2 < pairs ? found[k + 2]! : end
    // Forward byte moves are safe here: `o` never passes `from`.
    if (to - from < SMALL_COPY_BYTES) {
      for (let i = from; i < to; i++) buf[o++] = buf[i]!
    } else {
      buf.copyWithin(o, from, to)
      o += to - from
    }
  }
  return buf.subarray(0, o)
}

/** Copies `src[from, to)` into `out` at `o`; returns the index after it. */
function copy(src: Uint8Array, from: number, to: number, out: Uint8Array, o: number): number {
  const length = to - from
  if (length < SMALL_COPY_BYTES) {
    for (let i = from; i < to; i++) out[o++] = src[i]!
    return o
  }
  out.set(length === src.length ? src : src.subarray(from, to), o)
  return o + length
}
