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
  isRawPlaceholder,
  matchPlaceholder,
  placeholderBefore,
  rawPrefixStart,
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
   * (quote, escape, `]`) cost a third of the time.
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

      // Inside a string: find the next `"`, backslash or `]` from `i`. A raw placeholder is seen
      // at its `]`, one with escapes at its first escape. The common events (a `]`, a short
      // escape such as `\"`) are handled in the word loop; the rest break out to `at`.
      let at = -1
      if (i >= base && i < wordsEnd) {
        // SWAR, in literals as V8 re-reads module constants on each use. With y = x ^ 0x22..,
        // a `"` is a zero byte of y and a backslash or `]` (0x5c, 0x5d) a byte 0x7e or 0x7f.
        // `(y - 0x01..) & ~y & 0x80..` is non-zero iff y has a zero byte; `((y & 0x7f..) +
        // 0x02..) & ~y & 0x80..` marks exactly the bytes 0x7e and 0x7f (no carry crosses a byte);
        // `~(((y & 0x7f..) + 0x7f..) | y | 0x7f..)` marks exactly the zero bytes.
        let w = (i - base) >> 2
        let y = words[w]! ^ 0x22222222
        // Bytes before `i` in its word are masked out.
        let hits =
          (~(((y & 0x7f7f7f7f) + 0x7f7f7f7f) | y | 0x7f7f7f7f) |
            (((y & 0x7f7f7f7f) + 0x02020202) & ~y & 0x80808080)) &
          (-1 << (((i - base) & 3) << 3))
        // Bytes before `next` are consumed (an escape can reach into the next word).
        let next = i
        for (;;) {
          if (hits === 0) {
            if (++w >= wordCount) break
            // Two words a step while neither holds one of the bytes.
            for (; w + 1 < wordCount; w += 2) {
              const y0 = words[w]! ^ 0x22222222
              const y1 = words[w + 1]! ^ 0x22222222
              const any0 = (((y0 & 0x7f7f7f7f) + 0x02020202) | (y0 - 0x01010101)) & ~y0
              const any1 = (((y1 & 0x7f7f7f7f) + 0x02020202) | (y1 - 0x01010101)) & ~y1
              if (((any0 | any1) & 0x80808080) !== 0) break
            }
            y = words[w]! ^ 0x22222222
            hits =
              ~(((y & 0x7f7f7f7f) + 0x7f7f7f7f) | y | 0x7f7f7f7f) |
              (((y & 0x7f7f7f7f) + 0x02020202) & ~y & 0x80808080)
            continue
          }
          // Little-endian words: the lowest set bit marks the first byte found.
          const p = base + (w << 2) + ((31 - Math.clz32(hits & -hits)) >> 3)
          hits &= hits - 1
          if (p < next) continue
          const c = buf[p]!
          if (c === Byte.CloseBracket) {
            if (p >= 15 && isRawPlaceholder(buf, p - 15)) this.record(p - 15, p + 1, found)
            next = p + 1
            continue
          }
          if (c === Byte.Backslash && p + 1 < n && buf[p + 1] !== Byte.LowerU) {
            if (IS_SHORT_ESCAPE[buf[p + 1]!] !== 1) this.fail('invalid-escape', p)
            next = p + 2
            continue
          }
          at = p
          break
        }
        if (at < 0) {
          i = next > wordsEnd ? next : wordsEnd
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
          continue
        }
      }

      const c = buf[at]!
      if (c === Byte.Quote) {
        inString = false
        i = at + 1
        continue
      }
      if (c === Byte.CloseBracket) {
        if (at >= 15 && isRawPlaceholder(buf, at - 15)) this.record(at - 15, at + 1, found)
        i = at + 1
        continue
      }
      if (at + 1 >= n || (at + 6 > n && buf[at + 1] === Byte.LowerU)) {
        i = rawPrefixStart(buf, at)
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
      const start = code === Byte.OpenBracket ? at : placeholderBefore(buf, at, code)
      const end = start < 0 ? Match.None : matchPlaceholder(buf, start, n)
      if (end === Match.NeedMore) {
        i = start
        break
      }
      i = end === Match.None ? at + 6 : this.record(start, end, found)
    }
    // The buffer may end in the raw start of a placeholder: hold it back.
    if (inString && i === n) i = rawPrefixStart(buf, n)
    this.inString = inString
    this.position += i
    return i
  }

  /** Counts the placeholder at `[start, end)`; returns `end`. */
  private record(start: number, end: number, found: number[] | null): number {
    this.placeholders++
    this.placeholderBytes += end - start
    found?.push(start, end)
    return end
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
