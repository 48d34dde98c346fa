/**
 * The tag walker: replaces every `[MODELSERVERTAG]` placeholder in the strings of a JSON document
 * with a tag, streaming bytes in and bytes out. Pure: it knows nothing of HTTP or storage.
 *
 * Every byte that is not part of a placeholder goes out unchanged. Memory does not grow with the
 * document: at the end of a chunk only an escape or placeholder cut in two is held back (at most
 * 95 bytes: sixteen 6-byte escapes less one byte), never the document.
 */
import { PLACEHOLDER } from './walker-bytes'
import { concatBytes } from './bytes'
import { replaceSpans, ReusedOutput, type SubstitutionOptions } from './spans'
import { JsonScanner, MalformedExportError } from './json-scanner'

export { PLACEHOLDER } from './walker-bytes'
export { MalformedExportError } from './json-scanner'

const EMPTY = new Uint8Array(0)

/** Incremental substitution: feed chunks with `push`, then call `finish` once. */
export class TagWalker {
  private readonly tag: Uint8Array
  /** A tag no longer than a placeholder: the output can be written over the input. */
  private readonly shrinks: boolean
  private readonly reuseInput: boolean
  private readonly output: ReusedOutput | null
  private readonly scanner = new JsonScanner()
  /** Bytes of an escape or placeholder cut by the end of the last chunk. */
  private held: Uint8Array | null = null
  /** Placeholder `[start, end)` pairs of the chunk being pushed; reused to spare allocations. */
  private readonly found: number[] = []
  private failure: MalformedExportError | null = null

  constructor(tag: string, options: SubstitutionOptions = {}) {
    this.tag = new TextEncoder().encode(tag)
    this.shrinks = this.tag.length <= PLACEHOLDER.length
    this.reuseInput = options.reuseInput === true
    this.output = options.reuseOutput === true ? new ReusedOutput() : null
  }

  /** Placeholders substituted so far. */
  get replaced(): number {
    return this.scanner.placeholders
  }

  /** Substitutes in one chunk; returns the bytes that can go out now (possibly a view of `chunk`). */
  push(chunk: Uint8Array): Uint8Array {
    if (this.failure) throw this.failure
    let buf = chunk
    let owned = this.reuseInput
    if (this.held) {
      // Rare (a chunk ended inside an escape or placeholder): one copy of this chunk.
      buf = concatBytes([this.held, chunk])
      this.held = null
      owned = true
    }
    const found = this.found
    found.length = 0
    const end = this.guard(() => this.scanner.scan(buf, found))
    // Copied, as the producer may reuse its chunk once we return.
    if (end < buf.length) this.held = buf.slice(end)
    return replaceSpans(buf, end, found, this.tag, owned, this.shrinks, this.output)
  }

  /** Ends the document; throws `MalformedExportError` unless it was whole. Returns no bytes. */
  finish(): Uint8Array {
    if (this.failure) throw this.failure
    // Held bytes are always inside a string, so input ending there is cut short.
    if (this.held) {
      const offset = this.scanner.position + this.held.length
      this.failure = new MalformedExportError('unexpected-end', offset)
      throw this.failure
    }
    this.guard(() => this.scanner.finish())
    return EMPTY
  }

  /** Runs `step`, remembering a malformed input so that every later call fails the same way. */
  private guard<T>(step: () => T): T {
    try {
      return step()
    } catch (error) {
      if (error instanceof MalformedExportError) this.failure = error
      throw error
    }
  }
}

/** Streaming substitution: bytes in, bytes out; `tag` is already sanitized (only [A-Za-z0-9_-], 1..100 chars). */
export function substituteTag(tag: string): TransformStream<Uint8Array, Uint8Array> {
  // A chunk written to a stream belongs to its reader, so its memory can take the output.
  const walker = new TagWalker(tag, { reuseInput: true })
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const out = walker.push(chunk)
      if (out.length > 0) controller.enqueue(out)
    },
    flush() {
      walker.finish()
    },
  })
}
