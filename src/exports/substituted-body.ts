/**
 * How a stored export becomes a response body, and the checks against its metadata
 * (value-mismatch.ts) on the way; `substitutedBody` picks one of two ways by size:
 * - read whole (`substituteWhole`): read the value into memory at once, substitute, and only
 *   then answer. For the exports of usual size it is the cheapest path in workerd (one read, no
 *   JavaScript stream in the response), and a damaged value is found before the status line goes
 *   out, and answered with a 503 instead of a transfer cut short.
 * - streamed (`pumpSubstituted`): the value goes through the substitution into a sink, for
 *   exports too large to hold. KV hands a value over in small chunks (4 KiB in workerd), and each
 *   chunk that crosses JavaScript costs far more than the substitution's work on it; reading up
 *   to 256 KiB at a time with a BYOB reader keeps that small, at no more than 256 KiB read and
 *   256 KiB substituted per response in flight, whatever the tag (`streamReadBytes`).
 * Streams that are not byte streams (tests' hand-made ones) are read as they come.
 */
import { ServiceFailure } from '../http'
import { logIncident } from '../observability'
import { largeChunks, type ExportMetadata, type StoredExport } from '../storage'
import { concatBytes, MalformedExportError, PLACEHOLDER, type Substitution } from '../substitution'
import { substitutionFor } from './substitution-for-export'
import { ValueMismatchError } from './value-mismatch'

/**
 * An export whose stored value and substituted body are both up to this size is read whole;
 * any other is streamed. Real exports are 300-500 KB; at this size a request in flight holds at
 * most about 2 MiB (the value and its substituted copy). The body's size counts, not only the
 * value's: a 100-character tag makes each 16-byte placeholder 6 times longer, so a 1 MB value of
 * placeholders would come out as 6.5 MB.
 */
export const WHOLE_READ_MAX_BYTES = 1024 * 1024

/** What `substitutedBody` makes a body of. */
export interface BodyRequest {
  /** The publication ID, for the log. */
  id: string
  stored: StoredExport
  /** The sanitized tag. */
  tag: string
  /** Bytes of the substituted document (`substitutedLength`). */
  outputBytes: number
}

/**
 * The response body of `stored` with `tag` substituted: bytes when read whole (a value that does
 * not match its metadata throws the `storage_failed` failure), else a stream of exactly
 * `outputBytes`, which fails the transfer if the value turns out not to match (logged).
 */
export async function substitutedBody(request: BodyRequest): Promise<Uint8Array | ReadableStream> {
  const { id, stored, tag, outputBytes } = request
  const expected: ExpectedValue = { metadata: stored.metadata, outputBytes }
  if (Math.max(stored.metadata.size, outputBytes) <= WHOLE_READ_MAX_BYTES) {
    try {
      return await substituteWhole(stored.body, expected, substitutionFor(stored.metadata, tag))
    } catch (reason) {
      const cause = new Error(readFailure(id, reason), { cause: reason })
      throw new ServiceFailure({ reason: 'storage_failed', cause })
    }
  }
  // A fixed length makes a body that comes out shorter or longer (a cut-short or corrupted
  // value) fail the transfer instead of ending as a 200 that parses. The client just sees a
  // failed transfer cut off, so the log is the one place that names the export.
  const { readable, writable } = new FixedLengthStream(outputBytes)
  // The pump awaits each write before the next chunk, so one output buffer serves them all.
  const substitution = substitutionFor(stored.metadata, tag, { reuseOutput: true })
  const readBytes = streamReadBytes(tag.length)
  const pumped = pumpSubstituted(stored.body, expected, substitution, writable, readBytes)
  void pumped.catch((reason: unknown) => {
    // The client stopped reading (workerd: "Network connection lost."): the export is fine.
    if (!(reason instanceof SinkClosedError)) {
      logIncident('export_stream_failed', readFailure(id, reason), reason, { id })
    }
  })
  return readable
}

/** Why the stored value of `id` could not be served, for the log. */
function readFailure(id: string, reason: unknown): string {
  if (reason instanceof MalformedExportError) {
    return `export ${id} is malformed: ${reason.reason} at byte ${reason.offset}`
  }
  return `export ${id} could not be read: ${String(reason)}`
}

/** Bytes gathered from the stored value before they go through the substitution, at most. */
export const READ_CHUNK_BYTES = 256 * 1024

/** What the metadata promises about a value and its substituted form. */
export interface ExpectedValue {
  metadata: Pick<ExportMetadata, 'size' | 'placeholders'>
  /** Bytes of the substituted document (`substitutedLength`). */
  outputBytes: number
}

/**
 * `sink` refused a write or the close: its reader is gone (a client that disconnected
 * mid-body), which says nothing about the source.
 */
export class SinkClosedError extends Error {
  override name = 'SinkClosedError'
}

/**
 * Reads all of `source`, substitutes, and returns the document; throws `ValueMismatchError` (or
 * the substitution's or the source's error) when the value is not what the metadata says.
 */
export async function substituteWhole(
  source: ReadableStream<Uint8Array>,
  expected: ExpectedValue,
  substitution: Substitution,
): Promise<Uint8Array> {
  const { size } = expected.metadata
  const value = await readAll(source, size)
  // The substitution first, so that a value that is also malformed is logged as such.
  const body = substitution.push(value)
  if (value.length > size) throw ValueMismatchError.tooLong(size)
  const rest = substitution.finish()
  if (value.length !== size) throw ValueMismatchError.wrongSize(value.length, size)
  checkPlaceholders(substitution, expected, true)
  const out = rest.length === 0 ? body : concatBytes([body, rest])
  if (out.length !== expected.outputBytes) throw ValueMismatchError.outgrows(expected.outputBytes)
  return out
}

/**
 * Bytes to read at a time when streaming with a tag of `tagLength` characters, so that neither
 * a chunk read nor its substituted form exceeds `READ_CHUNK_BYTES`: a chunk made only of
 * placeholders grows by the tag's length over the placeholder's.
 */
export function streamReadBytes(tagLength: number): number {
  const placeholder = PLACEHOLDER.length
  return Math.floor((READ_CHUNK_BYTES * placeholder) / Math.max(placeholder, tagLength))
}

/**
 * Streams `source` through `substitution` into `sink`, reading `readBytes` at a time; rejects
 * (aborting both) on failure, with `SinkClosedError` when it was the sink that failed.
 */
export async function pumpSubstituted(
  source: ReadableStream<Uint8Array>,
  expected: ExpectedValue,
  substitution: Substitution,
  sink: WritableStream<Uint8Array>,
  readBytes: number = READ_CHUNK_BYTES,
): Promise<void> {
  const { size } = expected.metadata
  const writer = sink.getWriter()
  let read = 0
  let written = 0
  const write = async (out: Uint8Array): Promise<void> => {
    if (out.length === 0) return
    // The sink's fixed length would fail the write anyway; this says why, for the log.
    written += out.length
    if (written > expected.outputBytes) throw ValueMismatchError.outgrows(expected.outputBytes)
    await toSink(writer.write(out))
  }
  try {
    for await (const chunk of largeChunks(source, readBytes, { reuseBuffer: true })) {
      read += chunk.length
      const out = substitution.push(chunk)
      // After the substitution, so that a value that is also malformed is logged as such.
      if (read > size) throw ValueMismatchError.tooLong(size)
      checkPlaceholders(substitution, expected, false)
      await write(out)
    }
    await write(substitution.finish())
    if (read !== size) throw ValueMismatchError.wrongSize(read, size)
    checkPlaceholders(substitution, expected, true)
    await toSink(writer.close())
  } catch (reason) {
    await Promise.allSettled([writer.abort(reason), source.cancel(reason)])
    throw reason
  }
}

/** More placeholders than published is wrong at any point; fewer only once the value has ended. */
function checkPlaceholders(
  substitution: Substitution,
  expected: ExpectedValue,
  ended: boolean,
): void {
  const published = expected.metadata.placeholders
  if (substitution.replaced > published) {
    throw ValueMismatchError.placeholders(substitution.replaced, published, true)
  }
  if (ended && substitution.replaced !== published) {
    throw ValueMismatchError.placeholders(substitution.replaced, published, false)
  }
}

/** `sink`'s step, its failure wrapped in `SinkClosedError`. */
function toSink(step: Promise<void>): Promise<void> {
  return step.catch((cause: unknown) => {
    throw new SinkClosedError(`the sink failed: ${String(cause)}`, { cause })
  })
}

/**
 * All of `source` if it holds at most `expectedBytes`, in one buffer; a longer value is cut at
 * `expectedBytes + 1` (enough to tell it is too long) and the rest cancelled.
 */
async function readAll(
  source: ReadableStream<Uint8Array>,
  expectedBytes: number,
): Promise<Uint8Array> {
  const limit = expectedBytes + 1
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of largeChunks(source, limit)) {
    chunks.push(chunk)
    total += chunk.length
    if (total >= limit) break
  }
  // Leaving the loop released the reader; what is left of a value too long is not needed.
  if (total >= limit) await source.cancel().catch(() => {})
  return concatBytes(chunks)
}
