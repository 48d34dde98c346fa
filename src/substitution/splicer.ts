/**
 * The placeholder splicer: a streaming, byte-level `replaceAll` of the 16 raw bytes
 * `[MODELSERVERTAG]`. Pure: it knows nothing of HTTP or storage.
 *
 * Why it is enough for most exports: in a valid JSON document those 16 bytes can only stand
 * inside a string (`[M` starts no JSON value), and no byte of them can belong to an escape (`[` is
 * not a hex digit and follows no backslash), so every occurrence is a placeholder and every raw
 * placeholder is an occurrence. Publishing validates the document and counts its placeholders;
 * when none is spelled with `\uHHHH` escapes (metadata: `placeholderBytes == 16 * placeholders`),
 * the read path uses this instead of the tag walker, which has to follow the JSON structure to
 * find escaped spellings and so looks at every byte. This looks at one byte in sixteen, and
 * at the bytes around it only when it is one of the placeholder's.
 *
 * Memory does not grow with the document: at most 15 bytes (a placeholder cut by the end of a
 * chunk) are held back.
 */
import { concatBytes } from './bytes'
import { replaceSpans, ReusedOutput, type SubstitutionOptions } from './spans'
import { PLACEHOLDER } from './walker-bytes'

const PATTERN = new TextEncoder().encode(PLACEHOLDER)
const LENGTH = PATTERN.length

/** The placeholder as four little-endian words: a candidate is checked in four reads. */
const WORDS = new DataView(PATTERN.buffer, PATTERN.byteOffset, LENGTH)
const W0 = WORDS.getUint32(0, true)
const W1 = WORDS.getUint32(4, true)
const W2 = WORDS.getUint32(8, true)
const W3 = WORDS.getUint32(12, true)

/** For each byte, a bit per position of the placeholder that holds it. */
const POSITIONS = new Uint16Array(256)
for (let i = 0; i < LENGTH; i++) POSITIONS[PATTERN[i]!]! |= 1 << i

const EMPTY = new Uint8Array(0)

/** Incremental substitution of raw placeholders: feed chunks with `push`, then call `finish`. */
export class PlaceholderSplicer {
  /** Placeholders replaced so far. */
  replaced = 0
  private readonly tag: Uint8Array
  private readonly shrinks: boolean
  private readonly reuseInput: boolean
  private readonly output: ReusedOutput | null
  /** The start of a placeholder cut by the end of the last chunk. */
  private held: Uint8Array | null = null
  /** Placeholder `[start, end)` pairs of the chunk being pushed; reused to spare allocations. */
  private readonly found: number[] = []

  /** `tag` is already sanitized. */
  constructor(tag: string, options: SubstitutionOptions = {}) {
    this.tag = new TextEncoder().encode(tag)
    this.shrinks = this.tag.length <= LENGTH
    this.reuseInput = options.reuseInput === true
    this.output = options.reuseOutput === true ? new ReusedOutput() : null
  }

  /** Substitutes in one chunk; returns the bytes that can go out now (possibly a view of `chunk`). */
  push(chunk: Uint8Array): Uint8Array {
    let buf = chunk
    let owned = this.reuseInput
    if (this.held) {
      // Rare (a chunk ended inside a placeholder): one copy of this chunk.
      buf = concatBytes([this.held, chunk])
      this.held = null
      owned = true
    }
    const found = this.found
    found.length = 0
    const length = buf.length
    const words = new DataView(buf.buffer, buf.byteOffset, length)
    // Every placeholder covers exactly one of the positions 15, 31, 47...: looking at those
    // alone finds them all, in order, and their loads do not wait on each other.
    for (let probe = LENGTH - 1; probe < length; probe += LENGTH) {
      let positions = POSITIONS[buf[probe]!]!
      while (positions !== 0) {
        const bit = positions & -positions
        positions ^= bit
        const start = probe - (31 - Math.clz32(bit))
        if (start >= 0 && start + LENGTH <= length && matchesAt(words, start)) {
          found.push(start, start + LENGTH)
          break
        }
      }
    }
    const end = heldStart(buf)
    // Copied, as the producer may reuse its chunk once we return.
    if (end < length) this.held = buf.slice(end)
    this.replaced += found.length / 2
    return replaceSpans(buf, end, found, this.tag, owned, this.shrinks, this.output)
  }

  /** Ends the document; returns the bytes still held (a cut placeholder is not one). */
  finish(): Uint8Array {
    const rest = this.held ?? EMPTY
    this.held = null
    return rest
  }
}

/** Whether the 16 bytes at `at` are the placeholder. */
function matchesAt(words: DataView, at: number): boolean {
  return (
    words.getUint32(at, true) === W0 &&
    words.getUint32(at + 4, true) === W1 &&
    words.getUint32(at + 8, true) === W2 &&
    words.getUint32(at + 12, true) === W3
  )
}

/**
 * Where the bytes to hold back start: the one position among the last 15 whose bytes up to the
 * end are the start of the placeholder, or `buf.length`.
 */
function heldStart(buf: Uint8Array): number {
  const length = buf.length
  for (let at = Math.max(0, length - LENGTH + 1); at < length; at++) {
    let i = 0
    while (at + i < length && buf[at + i] === PATTERN[i]) i++
    if (at + i === length) return at
  }
  return length
}
