/**
 * The outer loop both finders share: bytes held back across chunks, the placeholder spans a
 * finder reports, and writing the chunk out with those spans replaced by the tag (spans.ts). What
 * differs, how placeholders are found, is the finder's (splicer.ts, json-splicer.ts).
 */
import { concatBytes } from './bytes'
import { MalformedExportError, PLACEHOLDER } from '../json'
import { replaceSpans, ReusedOutput, type SubstitutionOptions } from './spans'

/** How a substitution finds placeholders in the chunks pushed to it. */
export interface PlaceholderFinder {
  /** Placeholders found so far. */
  readonly placeholders: number
  /**
   * Appends the `[start, end)` pair of each placeholder of `buf` to `found`; returns where the
   * bytes to hold back for the next chunk start (`buf.length` when none).
   */
  find(buf: Uint8Array, found: number[]): number
  /** Ends the document with `held` still held back: returns the last bytes, or throws. */
  finish(held: Uint8Array | null): Uint8Array
}

/** Incremental substitution: feed chunks with `push`, then call `finish` once. */
export class FinderSubstitution {
  private readonly tag: Uint8Array
  /** A tag no longer than a placeholder: the output can be written over the input. */
  private readonly shrinks: boolean
  private readonly reuseInput: boolean
  private readonly output: ReusedOutput | null
  /** Bytes of an escape or placeholder cut by the end of the last chunk. */
  private held: Uint8Array | null = null
  /** Placeholder `[start, end)` pairs of the chunk being pushed; reused to spare allocations. */
  private readonly found: number[] = []
  private failure: MalformedExportError | null = null

  /** `tag` is already sanitized. */
  constructor(
    tag: string,
    private readonly finder: PlaceholderFinder,
    options: SubstitutionOptions = {},
  ) {
    this.tag = new TextEncoder().encode(tag)
    this.shrinks = this.tag.length <= PLACEHOLDER.length
    this.reuseInput = options.reuseInput === true
    this.output = options.reuseOutput === true ? new ReusedOutput() : null
  }

  /** Placeholders substituted so far. */
  get replaced(): number {
    return this.finder.placeholders
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
    const end = this.guard(() => this.finder.find(buf, found))
    // Copied, as the producer may reuse its chunk once we return.
    if (end < buf.length) this.held = buf.slice(end)
    return replaceSpans(buf, end, found, this.tag, {
      owned,
      shrinks: this.shrinks,
      into: this.output,
    })
  }

  /** Ends the document; returns its last bytes, or throws `MalformedExportError` from the finder. */
  finish(): Uint8Array {
    if (this.failure) throw this.failure
    const held = this.held
    this.held = null
    return this.guard(() => this.finder.finish(held))
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
