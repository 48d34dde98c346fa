/**
 * The walker's state machine: where the JSON strings are, where the placeholders in them are, and
 * whether the brackets balance.
 *
 * Trade-off accepted: only the structure is checked (one root object, balanced and matching
 * brackets, terminated strings, valid escapes, nothing after the root). Numbers, literals, commas
 * and colons are not, nor control characters in strings: publishing validates the full grammar,
 * and this check only has to stop a corrupted or cut-short value from passing as a whole
 * document, at a cost the word-at-a-time string scan can afford.
 */
import {
  Byte,
  IS_SHORT_ESCAPE,
  IS_STRING_EVENT,
  Match,
  WordView,
  escapedUnit,
  matchPlaceholder,
} from './walker-bytes'

/** Why a document was rejected. */
export type MalformedReason =
  | 'not-an-object'
  | 'mismatched-bracket'
  | 'invalid-escape'
  | 'trailing-data'
  | 'unexpected-end'

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

/** What a byte outside strings means. */
const enum Kind {
  Other,
  Space,
  StringStart,
  Open,
  Close,
}

const KIND = new Uint8Array(256)
for (const c of ' \t\n\r') KIND[c.charCodeAt(0)] = Kind.Space
KIND[Byte.Quote] = Kind.StringStart
KIND[Byte.OpenBrace] = KIND[Byte.OpenBracket] = Kind.Open
KIND[Byte.CloseBrace] = KIND[Byte.CloseBracket] = Kind.Close

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
  /** Absolute offset of the first byte of the buffer being scanned, then of the next one. */
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
   *
   * One long function on purpose: V8 does not inline the word search, and a call per event
   * (quote, escape, `[`) cost a third of the time.
   */
  scan(buf: Uint8Array, found: number[] | null): number {
    const n = buf.length
    const { base, words } = new WordView(buf)
    const wordCount = words.length
    const wordsEnd = base + (wordCount << 2)
    let inString = this.inString
    let i = 0
    scan: while (i < n) {
      if (!inString) {
        for (; i < n; i++) {
          const kind = KIND[buf[i]!]!
          if (kind === Kind.Space) continue
          if (this.depth === 0) this.checkTopLevel(buf[i]!, i)
          if (kind === Kind.Other) continue
          if (kind === Kind.StringStart) {
            inString = true
            i++
            continue scan
          }
          if (kind === Kind.Open) this.open(buf[i] === Byte.OpenBrace)
          else if (!this.close(buf[i] === Byte.CloseBrace)) this.fail('mismatched-bracket', i)
        }
        break
      }

      // Inside a string: find the next quote, backslash or `M` from `i`. `M` rather than `[`:
      // most `[` in exports open selectors and lists, while an `M` is nearly always the second
      // character of a placeholder, whose `[` is then right before it (or an escape, an event).
      let at = -1
      if (i >= base && i < wordsEnd) {
        let w = (i - base) >> 2
        // Bytes before `i` in its word are masked out of the first word's hits.
        let mask = -1 << (((i - base) & 3) << 3)
        // SWAR: a byte of `x ^ c` is zero where `x` holds `c`; `(v - 0x01..) & ~v & 0x80..` is
        // non-zero iff v has a zero byte; `~(((v & 0x7f..) + 0x7f..) | v | 0x7f..)` marks
        // exactly its zero bytes. Literals, as V8 re-reads module constants on each use.
        for (; w < wordCount; w++) {
          const x = words[w]!
          const q = x ^ 0x22222222
          const b = x ^ 0x5c5c5c5c
          const m = x ^ 0x4d4d4d4d
          const any = ((q - 0x01010101) & ~q) | ((b - 0x01010101) & ~b) | ((m - 0x01010101) & ~m)
          if ((any & 0x80808080) === 0) {
            mask = -1
            continue
          }
          const hits =
            ~(
              (((q & 0x7f7f7f7f) + 0x7f7f7f7f) | q | 0x7f7f7f7f) &
              (((b & 0x7f7f7f7f) + 0x7f7f7f7f) | b | 0x7f7f7f7f) &
              (((m & 0x7f7f7f7f) + 0x7f7f7f7f) | m | 0x7f7f7f7f)
            ) & mask
          mask = -1
          // Little-endian words: the lowest set bit marks the first hit.
          if (hits !== 0) {
            at = base + (w << 2) + ((31 - Math.clz32(hits & -hits)) >> 3)
            break
          }
        }
        if (at < 0) {
          i = wordsEnd
          continue
        }
      } else {
        const stop = i < base ? base : n
        for (let j = i; j < stop; j++) {
          if (IS_STRING_EVENT[buf[j]!] === 1) {
            at = j
            break
          }
        }
        if (at < 0) {
          i = stop
          // A `[` ending the buffer may start a placeholder: hold it back.
          if (i === n && buf[n - 1] === Byte.OpenBracket) i = n - 1
          continue
        }
      }

      const c = buf[at]!
      if (c === Byte.Quote) {
        inString = false
        i = at + 1
        continue
      }
      // A raw `[` before `at` is never part of an earlier event (none ends with `[`), so it is a
      // unit of this string and a placeholder may start there.
      const afterBracket = at > 0 && buf[at - 1] === Byte.OpenBracket
      let start = at - 1
      let next = at + 1
      if (c === Byte.Backslash) {
        if (at + 1 >= n || (at + 6 > n && buf[at + 1] === Byte.LowerU)) {
          i = afterBracket ? at - 1 : at
          break
        }
        const e = buf[at + 1]!
        if (e !== Byte.LowerU) {
          if (IS_SHORT_ESCAPE[e] !== 1) this.fail('invalid-escape', at)
          i = at + 2
          continue
        }
        const code = escapedUnit(buf, at)
        if (code < 0) this.fail('invalid-escape', at)
        next = at + 6
        if (code === Byte.OpenBracket) start = at
        else if (code !== Byte.UpperM || !afterBracket) {
          i = next
          continue
        }
      } else if (!afterBracket) {
        i = next
        continue
      }
      const end = matchPlaceholder(buf, start, n)
      if (end === Match.NeedMore) {
        i = start
        break
      }
      if (end === Match.None) {
        i = next
        continue
      }
      this.placeholders++
      this.placeholderBytes += end - start
      found?.push(start, end)
      i = end
    }
    this.inString = inString
    this.position += i
    return i
  }

  /** Throws unless the bytes scanned so far are a whole document. */
  finish(): void {
    if (this.rootClosed) return
    const empty = this.depth === 0 && !this.inString
    this.fail(empty ? 'not-an-object' : 'unexpected-end', 0)
  }

  /** Outside the root object only whitespace may come, and the first thing must be `{`. */
  private checkTopLevel(byte: number, at: number): void {
    if (this.rootClosed) this.fail('trailing-data', at)
    if (byte !== Byte.OpenBrace) this.fail('not-an-object', at)
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
