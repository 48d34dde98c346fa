/**
 * The walker's state machine: where the JSON strings are, where the placeholders in them are, and
 * whether the brackets balance.
 *
 * Trade-off accepted: only the structure is checked (one root object, balanced and matching
 * brackets, terminated strings, valid escapes, nothing after the root). Numbers, literals, commas
 * and colons are not, nor control characters in strings: publishing validates the full grammar,
 * and this check only has to stop a corrupted or cut-short value from passing as a whole
 * document, at a cost the byte-skipping string scan can afford.
 */
import {
  BACKSLASH,
  IS_SHORT_ESCAPE,
  LOWER_U,
  NEED_MORE,
  NO_MATCH,
  OPEN_BRACKET,
  QUOTE,
  IS_STRING_EVENT,
  WordView,
  escapedUnit,
  matchPlaceholder,
} from './walker-bytes'

/** Why a document was rejected. */
export type MalformedReason =
  'not-an-object' | 'mismatched-bracket' | 'invalid-escape' | 'trailing-data' | 'unexpected-end'

/** Thrown (or used to error the stream) when the input is not a complete, well-formed JSON document. */
export class MalformedExportError extends Error {
  override name = 'MalformedExportError'

  constructor(
    readonly reason: MalformedReason,
    readonly offset: number,
  ) {
    super(`malformed export (${reason}) at byte ${offset}`)
  }
}

/** Byte classes outside strings. */
const OTHER = 0
const SPACE = 1
const STRING_START = 2
const OPEN_OBJECT = 3
const OPEN_ARRAY = 4
const CLOSE_OBJECT = 5
const CLOSE_ARRAY = 6

const CLASS = new Uint8Array(256)
for (const c of ' \t\n\r') CLASS[c.charCodeAt(0)] = SPACE
CLASS[QUOTE] = STRING_START
CLASS[0x7b] = OPEN_OBJECT
CLASS[OPEN_BRACKET] = OPEN_ARRAY
CLASS[0x7d] = CLOSE_OBJECT
CLASS[0x5d] = CLOSE_ARRAY

/** Initial size of the bracket stack: one bit per nesting level. */
const INITIAL_STACK_BYTES = 64

/**
 * Scans a document pushed in consecutive buffers. `scan` consumes a buffer up to a point where
 * nothing is undecided and reports the placeholders found; the caller passes the rest again,
 * in front of the next buffer.
 */
export class JsonScanner {
  /** Placeholders found so far, and the bytes they occupy as written. */
  placeholders = 0
  placeholderBytes = 0
  /** Absolute offset of the next byte to scan. */
  position = 0
  private inString = false
  private rootClosed = false
  private depth = 0
  /** Bit `d` is set when nesting level `d` is an object, clear when it is an array. */
  private stack = new Uint8Array(INITIAL_STACK_BYTES)

  /**
   * Scans `buf` and returns how many of its bytes are consumed: all of them, or up to the start
   * of an escape or placeholder cut by the end of the buffer. Appends `[start, end)` of each
   * placeholder found to `found`, when given. Throws `MalformedExportError`.
   */
  scan(buf: Uint8Array, found: number[] | null): number {
    const n = buf.length
    const view = new WordView(buf)
    let i = 0
    while (i < n) {
      if (!this.inString) i = this.scanStructure(buf, i)
      else {
        i = this.scanString(buf, view, i, found)
        // Still inside the string: the buffer ended, or a unit is cut and held back.
        if (this.inString) break
      }
    }
    this.position += i
    return i
  }

  /** Throws unless the bytes scanned so far are a whole document. */
  finish(): void {
    if (this.rootClosed) return
    const empty = this.depth === 0 && !this.inString
    this.fail(empty ? 'not-an-object' : 'unexpected-end', 0)
  }

  /**
   * Walks a string from `from` (inside it) to its closing quote, recording placeholders. Returns
   * the index after the quote (clearing `inString`), `buf.length`, or the start of a unit cut by
   * the end of the buffer.
   */
  private scanString(
    buf: Uint8Array,
    view: WordView,
    from: number,
    found: number[] | null,
  ): number {
    const n = buf.length
    const { base, words } = view
    const wordCount = words.length
    const wordsEnd = base + (wordCount << 2)
    let i = from
    for (;;) {
      let at = -1
      if (i < base || i >= wordsEnd) {
        const stop = i < base ? base : n
        for (; i < stop; i++) {
          if (IS_STRING_EVENT[buf[i]!] === 1) {
            at = i
            break
          }
        }
        if (at < 0) {
          if (i < n) continue
          return n
        }
      } else {
        let w = (i - base) >> 2
        // Bytes before `i` in its word are masked out of the first word's hits.
        let mask = -1 << (((i - base) & 3) << 3)
        // SWAR, four bytes a step, with literals (V8 re-reads module constants on each use).
        // A byte of `x ^ c` is zero where `x` holds byte `c`; `(v - 0x01..) & ~v & 0x80..` is
        // non-zero iff v has a zero byte; `~(((v & 0x7f..) + 0x7f..) | v | 0x7f..)` marks
        // exactly its zero bytes.
        for (; w < wordCount; w++) {
          const x = words[w]!
          const q = x ^ 0x22222222
          const b = x ^ 0x5c5c5c5c
          const o = x ^ 0x5b5b5b5b
          const any = ((q - 0x01010101) & ~q) | ((b - 0x01010101) & ~b) | ((o - 0x01010101) & ~o)
          if ((any & 0x80808080) === 0) {
            mask = -1
            continue
          }
          const hits =
            ~(
              (((q & 0x7f7f7f7f) + 0x7f7f7f7f) | q | 0x7f7f7f7f) &
              (((b & 0x7f7f7f7f) + 0x7f7f7f7f) | b | 0x7f7f7f7f) &
              (((o & 0x7f7f7f7f) + 0x7f7f7f7f) | o | 0x7f7f7f7f)
            ) & mask
          mask = -1
          // Little-endian words (checked at load): the lowest set bit is the first hit.
          if (hits !== 0) {
            at = base + (w << 2) + ((31 - Math.clz32(hits & -hits)) >> 3)
            break
          }
        }
        if (at < 0) {
          i = wordsEnd
          continue
        }
      }
      const c = buf[at]!
      if (c === QUOTE) {
        this.inString = false
        return at + 1
      }
      let unit = 1
      if (c === BACKSLASH) {
        if (at + 1 >= n) return at
        const e = buf[at + 1]!
        if (e !== LOWER_U) {
          if (IS_SHORT_ESCAPE[e] !== 1) this.fail('invalid-escape', at)
          i = at + 2
          continue
        }
        if (at + 6 > n) return at
        const code = escapedUnit(buf, at)
        if (code < 0) this.fail('invalid-escape', at)
        if (code !== OPEN_BRACKET) {
          i = at + 6
          continue
        }
        unit = 6
      } else if (at + 1 < n) {
        // Most `[` in exports open selectors and lists: `[M` or `[\` could be a placeholder.
        const next = buf[at + 1]!
        if (next !== 0x4d && next !== BACKSLASH) {
          i = at + 1
          continue
        }
      }
      const end = matchPlaceholder(buf, at, n)
      if (end === NEED_MORE) return at
      if (end === NO_MATCH) {
        i = at + unit
        continue
      }
      this.placeholders++
      this.placeholderBytes += end - at
      found?.push(at, end)
      i = end
    }
  }

  /**
   * Walks bytes outside strings from `from`, keeping the bracket stack. Returns the index after
   * the `"` opening the next string (setting `inString`), or `buf.length`.
   */
  private scanStructure(buf: Uint8Array, from: number): number {
    const n = buf.length
    for (let i = from; i < n; i++) {
      const kind = CLASS[buf[i]!]!
      if (kind === SPACE) continue
      if (this.depth === 0) {
        if (this.rootClosed) this.fail('trailing-data', i)
        if (kind !== OPEN_OBJECT) this.fail('not-an-object', i)
      }
      if (kind === OTHER) continue
      if (kind === STRING_START) {
        this.inString = true
        return i + 1
      }
      if (kind === OPEN_OBJECT || kind === OPEN_ARRAY) this.open(kind === OPEN_OBJECT)
      else if (!this.close(kind === CLOSE_OBJECT)) this.fail('mismatched-bracket', i)
    }
    return n
  }

  private open(isObject: boolean): void {
    const d = this.depth++
    if (d >> 3 >= this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2)
      grown.set(this.stack)
      this.stack = grown
    }
    if (isObject) this.stack[d >> 3]! |= 1 << (d & 7)
    else this.stack[d >> 3]! &= ~(1 << (d & 7))
  }

  /** Pops a level; false if there is none or it is of the other kind. */
  private close(isObject: boolean): boolean {
    if (this.depth === 0) return false
    const d = --this.depth
    if (d === 0) this.rootClosed = true
    return ((this.stack[d >> 3]! >> (d & 7)) & 1) === (isObject ? 1 : 0)
  }

  private fail(reason: MalformedReason, at: number): never {
    throw new MalformedExportError(reason, this.position + at)
  }
}
