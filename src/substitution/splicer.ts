/**
 * The placeholder splicer: a streaming, byte-level `replaceAll` of the 16 raw bytes
 * `[MODELSERVERTAG]`. Pure: it knows nothing of HTTP or storage.
 *
 * Why it is enough for most exports: in a valid JSON document those 16 bytes can only stand
 * inside a string (`[M` starts no JSON value), and no byte of them can belong to an escape (`[` is
 * not a hex digit and follows no backslash), so every occurrence is a placeholder and every raw
 * placeholder is an occurrence. Publishing validates the document and counts its placeholders;
 * when none is spelled with `\uHHHH` escapes (metadata: `placeholderBytes == 16 * placeholders`),
 * the read path uses this instead of the JSON splicer, which has to follow the JSON structure to
 * find escaped spellings and so looks at every byte. This looks at one byte in sixteen, and
 * at the bytes around it only when it is one of the placeholder's.
 *
 * Memory does not grow with the document: at most 15 bytes (a placeholder cut by the end of a
 * chunk) are held back.
 */
import { FinderSubstitution, type PlaceholderFinder } from './finder-substitution'
import type { SubstitutionOptions } from './spans'
import { PLACEHOLDER } from '../json'

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

/** The raw finder: matches the 16 bytes of the placeholder, one byte in sixteen looked at. */
class RawFinder implements PlaceholderFinder {
  placeholders = 0

  find(buf: Uint8Array, found: number[]): number {
    const start = found.length
    const length = buf.length
    const words = new DataView(buf.buffer, buf.byteOffset, length)
    // Every placeholder covers exactly one of the positions 15, 31, 47...: looking at those
    // alone finds them all, in order, and their loads do not wait on each other.
    for (let probe = LENGTH - 1; probe < length; probe += LENGTH) {
      let positions = POSITIONS[buf[probe]!]!
      while (positions !== 0) {
        const bit = positions & -positions
        positions ^= bit
        const at = probe - (31 - Math.clz32(bit))
        if (at >= 0 && at + LENGTH <= length && matchesAt(words, at)) {
          found.push(at, at + LENGTH)
          break
        }
      }
    }
    this.placeholders += (found.length - start) / 2
    return heldStart(buf)
  }

  /** Returns the bytes still held (a cut placeholder is not one). */
  finish(held: Uint8Array | null): Uint8Array {
    return held ?? EMPTY
  }
}

/** Incremental substitution of raw placeholders: feed chunks with `push`, then call `finish`. */
export class PlaceholderSplicer extends FinderSubstitution {
  /** `tag` is already sanitized. */
  constructor(tag: string, options: SubstitutionOptions = {}) {
    super(tag, new RawFinder(), options)
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
