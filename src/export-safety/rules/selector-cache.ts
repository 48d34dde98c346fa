/**
 * The verdicts of the selectors an export has already shown, looked up by the selector's
 * characters where they stand in a text, without making a string of them.
 *
 * Why not a `Map` keyed by the selector: in workerd, looking a string up in a `Map` or a `Set`
 * keeps about that string's size in memory until the next full collection when the string is
 * new. A model repeats a few hundred selectors and costs nothing so, but an export whose every
 * selector is new (a distinct `distance` each) kept about 20 MiB more than a benign one of the
 * same size (docs/performance.md, "Adversarial publishes"). Numbers as keys keep nothing.
 *
 * A lookup compares the selector with the kept ones of its hash only, and a hash keeps a few:
 * selectors made to share a hash cost a few comparisons each, never a list.
 *
 * The fast path looks selectors up in the document's bytes (`getBytes`): hashed and compared
 * four bytes at a time through a `DataView`, several times faster than a character at a time,
 * for the thousands of frame commands of a model. The hash of a string is the same function of
 * its UTF-16 units, so that an ASCII selector hashes alike either way.
 */

/** Selectors kept per hash: beyond them, a selector is checked again each time. */
const MAX_PER_HASH = 4

/**
 * Kept in arrays side by side rather than an object each: what a check keeps is what the
 * collector copies, and a few hundred KiB more of it grow the heap by MiBs (docs/performance.md).
 * A selector of ASCII characters without a backslash (every editor's) is kept as bytes, outside
 * the JavaScript heap; any other as a string of its own.
 */
export class SelectorCache<T> {
  /** The index of the first selector kept of each hash. */
  private readonly firstOfHash = new Map<number, number>()
  /** Each kept selector's length. */
  private readonly lengths: number[] = []
  /** Where each kept selector's bytes start in `bytes`; -1 for one kept in `strings`. */
  private readonly byteStarts: number[] = []
  /** The selectors not kept as bytes, by index; absent for the others. */
  private readonly strings = new Map<number, string>()
  private readonly verdicts: T[] = []
  /** The index of the next selector of the same hash, or -1. */
  private readonly nextOfHash: number[] = []
  /** As `Offsets` (export-reading.ts): a full store is replaced by one twice as large. */
  private bytes = new DataView(new ArrayBuffer(4096))
  private byteCount = 0
  private readonly max: number
  private readonly maxChars: number
  private chars = 0
  /** The index of the selector `getBytes` found or `set` kept last; -1 before any. */
  private lastFound = -1

  /** Keeps at most `max` selectors, of `maxChars` characters in all. */
  constructor(max: number, maxChars: number) {
    this.max = max
    this.maxChars = maxChars
  }

  /**
   * The verdict kept for the selector at `[from, to)` of `text`, or undefined. With
   * `plainOnly`, a selector holding a backslash is never found (undefined), so that a text
   * spelled with JSON escapes is not taken for the decoded one.
   */
  get(text: string, from: number, to: number, plainOnly = false): T | undefined {
    const hash = hashOf(text, from, to, plainOnly)
    if (hash < 0) return undefined
    const length = to - from
    let index = this.firstOfHash.get(hash) ?? -1
    while (index >= 0) {
      if (this.lengths[index] === length) {
        const start = this.byteStarts[index]!
        const same =
          start >= 0
            ? sameAsBytes(text, from, this.bytes, start, length)
            : text.startsWith(this.strings.get(index)!, from)
        if (same) return this.verdicts[index]
      }
      index = this.nextOfHash[index]!
    }
    return undefined
  }

  /**
   * The verdict kept for the selector whose characters are the bytes `[from, to)` of
   * `document`, one byte each (ASCII), or undefined; one holding a backslash is never found, as
   * `get`'s `plainOnly`.
   */
  getBytes(document: DataView, from: number, to: number): T | undefined {
    const length = to - from
    // Every frame names the model's parts in the same order: the selector kept after the one
    // found last is compared first, with no hash made.
    const next = this.lastFound + 1
    if (next < this.lengths.length && this.lengths[next] === length) {
      const start = this.byteStarts[next]!
      if (start >= 0 && sameBytes(document, from, this.bytes, start, length)) {
        this.lastFound = next
        return this.verdicts[next]
      }
    }
    const hash = hashOfBytes(document, from, to)
    let index = this.firstOfHash.get(hash) ?? -1
    while (index >= 0) {
      const start = this.byteStarts[index]!
      if (
        start >= 0 &&
        this.lengths[index] === length &&
        sameBytes(document, from, this.bytes, start, length)
      ) {
        this.lastFound = index
        return this.verdicts[index]
      }
      index = this.nextOfHash[index]!
    }
    return undefined
  }

  /** Keeps the verdict of `selector`, while there is room. */
  set(selector: string, verdict: T): void {
    const length = selector.length
    const first = this.firstToKeep(hashOf(selector, 0, length, false), length)
    if (first === null) return
    const index = this.lengths.length
    const start = this.keepBytes(selector)
    // A copy of its own: a selector cut from a larger text would keep all of that text.
    if (start < 0) this.strings.set(index, internalized(selector))
    this.push(start, length, verdict, first)
  }

  /**
   * `set` of the selector whose characters are the bytes `[from, to)` of `document`, one byte
   * each (ASCII, no backslash: as `getBytes` finds it): copied as they stand, with the hash of
   * `getBytes`, the same for the same characters.
   */
  setBytes(document: DataView, from: number, to: number, verdict: T): void {
    const length = to - from
    const first = this.firstToKeep(hashOfBytes(document, from, to), length)
    if (first === null) return
    const start = this.room(length)
    new Uint8Array(this.bytes.buffer, start, length).set(
      new Uint8Array(document.buffer, document.byteOffset + from, length),
    )
    this.push(start, length, verdict, first)
  }

  /**
   * The first selector kept of `hash` (-1: none), or null when a selector of `length`
   * characters and that hash finds no room; the new one becomes the hash's first.
   */
  private firstToKeep(hash: number, length: number): number | null {
    if (this.lengths.length >= this.max || this.chars + length > this.maxChars) return null
    const first = this.firstOfHash.get(hash) ?? -1
    let count = 0
    for (let index = first; index >= 0; index = this.nextOfHash[index]!) count++
    if (count >= MAX_PER_HASH) return null
    this.firstOfHash.set(hash, this.lengths.length)
    return first
  }

  private push(start: number, length: number, verdict: T, nextOfHash: number): void {
    this.lastFound = this.lengths.length
    this.byteStarts.push(start)
    this.lengths.push(length)
    this.chars += length
    this.verdicts.push(verdict)
    this.nextOfHash.push(nextOfHash)
  }

  /** Copies `selector` into `bytes` when it is ASCII without a backslash: where; else -1. */
  private keepBytes(selector: string): number {
    for (let at = 0; at < selector.length; at++) {
      const unit = selector.charCodeAt(at)
      if (unit >= 0x80 || unit === BACKSLASH) return -1
    }
    const start = this.room(selector.length)
    for (let at = 0; at < selector.length; at++) {
      this.bytes.setUint8(start + at, selector.charCodeAt(at))
    }
    return start
  }

  /** Where `length` more bytes go in `bytes`, taken (a full store replaced by a larger one). */
  private room(length: number): number {
    if (this.byteCount + length > this.bytes.byteLength) {
      const larger = new Uint8Array(2 * (this.byteCount + length))
      larger.set(new Uint8Array(this.bytes.buffer, 0, this.byteCount))
      this.bytes = new DataView(larger.buffer)
    }
    const start = this.byteCount
    this.byteCount += length
    return start
  }
}

const BACKSLASH = 0x5c
const FNV_BASIS = 0x811c9dc5
const FNV_PRIME = 0x01000193

/**
 * FNV-1a over the UTF-16 units of `[from, to)` taken four at a time (each group as one 32-bit
 * word, the first unit lowest), the rest one at a time; within 30 bits (a small integer in V8: a
 * key that needs no allocation); -1 when `plainOnly` and one of them is `\`. For ASCII it is
 * `hashOfBytes` of its bytes.
 */
function hashOf(text: string, from: number, to: number, plainOnly: boolean): number {
  let hash = FNV_BASIS
  let at = from
  for (; at + 4 <= to; at += 4) {
    const a = text.charCodeAt(at)
    const b = text.charCodeAt(at + 1)
    const c = text.charCodeAt(at + 2)
    const d = text.charCodeAt(at + 3)
    if (plainOnly && (a === BACKSLASH || b === BACKSLASH || c === BACKSLASH || d === BACKSLASH)) {
      return -1
    }
    hash = Math.imul(hash ^ (a | (b << 8) | (c << 16) | (d << 24)), FNV_PRIME)
  }
  for (; at < to; at++) {
    const unit = text.charCodeAt(at)
    if (plainOnly && unit === BACKSLASH) return -1
    hash = Math.imul(hash ^ unit, FNV_PRIME)
  }
  return hash & 0x3fffffff
}

/** `hashOf` of the bytes `[from, to)` of `bytes` read as characters. */
function hashOfBytes(bytes: DataView, from: number, to: number): number {
  let hash = FNV_BASIS
  let at = from
  for (; at + 4 <= to; at += 4) hash = Math.imul(hash ^ bytes.getInt32(at, true), FNV_PRIME)
  for (; at < to; at++) hash = Math.imul(hash ^ bytes.getUint8(at), FNV_PRIME)
  return hash & 0x3fffffff
}

/** Whether the `length` characters of `text` from `from` are the bytes of `bytes` from `start`. */
function sameAsBytes(
  text: string,
  from: number,
  bytes: DataView,
  start: number,
  length: number,
): boolean {
  for (let at = 0; at < length; at++) {
    if (text.charCodeAt(from + at) !== bytes.getUint8(start + at)) return false
  }
  return true
}

/** Whether `length` bytes of `a` from `aFrom` are those of `b` from `bFrom`. */
export function sameBytes(
  a: DataView,
  aFrom: number,
  b: DataView,
  bFrom: number,
  length: number,
): boolean {
  let at = 0
  for (; at + 4 <= length; at += 4) {
    if (a.getInt32(aFrom + at, true) !== b.getInt32(bFrom + at, true)) return false
  }
  for (; at < length; at++) if (a.getUint8(aFrom + at) !== b.getUint8(bFrom + at)) return false
  return true
}

/**
 * `text` as V8 keeps a property name: one copy of its characters, in the old generation, holding
 * no larger text alive. What the cache keeps is then never copied by the young generation's
 * collections, whose growth a few hundred KiB of survivors would set off (docs/performance.md).
 */
function internalized(text: string): string {
  const names: Record<string, true> = { [text]: true }
  return Object.keys(names)[0]!
}
