/**
 * The JSON byte scanner: one pass over UTF-8 bytes, pushed in consecutive buffers, that follows
 * the document's structure, finds the placeholders in its strings (keys included, raw or
 * spelled with `\uHHHH` escapes) and fails on the first byte that breaks the grammar. It builds
 * no string and no tree; it holds a bracket stack of one bit per level.
 *
 * Two grammars (grammar.ts) and one string scan:
 * - `strict` (publishing, and the display-model check): RFC 8259 whole, strict UTF-8 in strings,
 *   no raw control characters, a depth limit, and an observer told where the values it watches
 *   start and end (`JsonObserver`). It accepts exactly what `JSON.parse` of the decoded text
 *   accepts.
 * - `structure` (the read path, under the JSON splicer): brackets, strings and escapes only, the
 *   root an object. Trade-off accepted: numbers, literals, commas, colons, control characters
 *   and UTF-8 go unchecked, as publishing checked them; this only has to stop a value cut short
 *   or corrupted from passing as a whole document, at a cost the word-at-a-time string scan can
 *   afford.
 */
import {
  Action,
  EXPECTED,
  MAY_END,
  SCALAR_STATE,
  STRICT,
  STRUCTURE,
  State,
  TRANSITIONS,
  type Grammar,
} from './grammar.js'
import { UTF8_CUT, UTF8_INVALID, utf8SequenceEnd } from './utf8.js'
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
} from './placeholder-bytes.js'

/** Why a document was rejected. */
export type MalformedReason =
  | 'not-an-object'
  | 'mismatched-bracket'
  | 'invalid-escape'
  | 'trailing-data'
  | 'unexpected-end'
  | 'unexpected-byte'
  | 'control-character'
  | 'invalid-utf8'
  | 'too-deep'

/** Thrown (or used to error the stream) when the input is not a complete, well-formed JSON document. */
export class MalformedExportError extends Error {
  override name = 'MalformedExportError'
  readonly reason: MalformedReason
  readonly offset: number
  /** What is wrong, in words: `unexpected "]", expected a value`. */
  readonly detail: string

  constructor(reason: MalformedReason, offset: number, detail: string = reason) {
    super(`malformed export (${reason}) at byte ${offset}: ${detail}`)
    this.reason = reason
    this.offset = offset
    this.detail = detail
  }
}

/** What a JSON value is, told by its first byte. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'

/**
 * Told where the values it watches start and end (strict grammar); offsets are absolute. The
 * root is always reported; a value's members or elements are reported when it is watched, which
 * its own report decides by returning true. A watched string or container is also told where
 * it ends; a number or literal is not. So an observer sees the parts of the document it asks for,
 * at the cost of a call per value it watches, and the scan stays one pass with no tree.
 */
export interface JsonObserver {
  /** The root value begins at `offset`; true to watch it. */
  root(kind: JsonKind, offset: number): boolean
  /**
   * A member of a watched object begins: its name at `[nameStart, nameEnd)`, quotes included, its
   * value at `offset`; true to watch the value.
   */
  member(nameStart: number, nameEnd: number, kind: JsonKind, offset: number): boolean
  /** An element of a watched array begins at `offset`; true to watch it. */
  element(kind: JsonKind, offset: number): boolean
  /** The watched string or container reported last ends just before `offset`. */
  end(offset: number): void
}

/** Options of `JsonScanner`. */
export interface JsonScannerOptions {
  /** `strict` for publishing, `structure` (the default) for the read path. */
  grammar?: 'strict' | 'structure'
  /** Deepest nesting of arrays and objects accepted; deeper fails with `too-deep`. */
  maxDepth?: number
  /** Told about the values it watches (strict grammar only). */
  observer?: JsonObserver
}

/** In strict mode the string scan also stops at control characters and non-ASCII bytes. */
const IS_STRICT_STRING_EVENT = new Uint8Array(IS_STRING_EVENT)
IS_STRICT_STRING_EVENT.fill(1, 0, 0x20)
IS_STRICT_STRING_EVENT.fill(1, 0x80, 0x100)

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
  private readonly grammar: Grammar
  private readonly maxDepth: number
  private readonly observer: JsonObserver | null
  /** Whether the string scan also stops at control and non-ASCII bytes. */
  private readonly strict: boolean
  private readonly stringEvents: Uint8Array
  private state: State
  private inString = false
  private depth = 0
  /** Bit `d` is set when nesting level `d` is an object, clear when it is an array. */
  private stack = new Uint8Array(INITIAL_STACK_BYTES)
  /**
   * How many levels of the open containers, from the root, the observer watches (-1 without
   * one): a value at depth `d` is reported when `d <= watched`. Watched levels are always the
   * outermost ones, since only a watched value's members and elements are reported.
   */
  private watched: number
  /** Whether the string being read is watched (its end is reported). */
  private watchedString = false
  /** The name of the watched object's member being read: absolute `[keyStart, keyEnd)`; -1 while open. */
  private keyStart = 0
  private keyEnd = 0

  constructor(options: JsonScannerOptions = {}) {
    const strict = options.grammar === 'strict'
    this.grammar = strict ? STRICT : STRUCTURE
    this.state = this.grammar.start
    this.maxDepth = options.maxDepth ?? Infinity
    this.observer = options.observer ?? null
    this.watched = this.observer === null ? -1 : 0
    this.strict = strict
    this.stringEvents = strict ? IS_STRICT_STRING_EVENT : IS_STRING_EVENT
  }

  /**
   * Scans `buf` and returns how many of its bytes are consumed: all of them, or up to the start
   * of an escape, placeholder or UTF-8 sequence cut by the end of the buffer. Appends `[start,
   * end)` of each placeholder found to `found`, when given. Throws `MalformedExportError`.
   *
   * One long function on purpose: V8 does not inline the word search, and a call per event
   * (quote, escape, `]`) cost a third of the time.
   */
  scan(buf: Uint8Array, found: number[] | null): number {
    const n = buf.length
    const { base, words } = new WordView(buf)
    const wordCount = words.length
    const wordsEnd = base + (wordCount << 2)
    const grammar = this.grammar
    const observer = this.observer
    const strict = this.strict
    const stringEvents = this.stringEvents
    let state = this.state
    let inString = this.inString
    let i = 0
    scan: while (i < n) {
      if (!inString) {
        for (; i < n; i++) {
          const byte = buf[i]!
          const next = TRANSITIONS[(state << 8) | byte]!
          if (next < Action.First) {
            state = next
            continue
          }
          switch (next) {
            case Action.OpenObject:
            case Action.OpenArray: {
              const isObject = next === Action.OpenObject
              const watch =
                this.depth <= this.watched && this.report(isObject ? 'object' : 'array', i)
              this.open(isObject, i)
              if (watch) this.watched = this.depth
              state = isObject ? grammar.afterOpenObject : grammar.afterOpenArray
              continue
            }
            case Action.CloseObject:
            case Action.CloseArray:
              this.close(next === Action.CloseObject, i)
              state = this.depth === 0 ? grammar.afterRoot : grammar.afterValue
              continue
            case Action.Comma:
              if (this.depth === 0) this.unexpected(state, byte, i)
              state = this.innermostIsObject() ? State.Key : State.Value
              continue
            case Action.Scalar:
              if (this.depth <= this.watched) this.report(scalarKind(byte), i)
              state = SCALAR_STATE[byte]!
              continue
            case Action.StringKey:
              if (this.depth <= this.watched) {
                this.keyStart = this.position + i
                this.keyEnd = -1
              }
              state = grammar.afterKey
              break
            case Action.StringValue:
              if (this.depth <= this.watched) this.watchedString = this.report('string', i)
              state = this.depth === 0 ? grammar.afterRoot : grammar.afterValue
              break
            default:
              this.unexpected(state, byte, i)
          }
          inString = true
          i++
          continue scan
        }
        break
      }

      // Inside a string: find the next `"`, backslash or `]` from `i` (and in strict mode the
      // next control or non-ASCII byte). A raw placeholder is seen at its `]`, one with escapes
      // at its first escape. The common events (a `]`, a short escape such as `\"`, a valid
      // UTF-8 sequence) are handled in the word loop; the rest break out to `at`.
      let at = -1
      if (i >= base && i < wordsEnd) {
        // SWAR, in literals as V8 re-reads module constants on each use. With y = x ^ 0x22..,
        // a `"` is a zero byte of y and a backslash or `]` (0x5c, 0x5d) a byte 0x7e or 0x7f.
        // `(y - 0x01..) & ~y & 0x80..` is non-zero iff y has a zero byte; `((y & 0x7f..) +
        // 0x02..) & ~y & 0x80..` marks exactly the bytes 0x7e and 0x7f (no carry crosses a byte);
        // `~(((y & 0x7f..) + 0x7f..) | y | 0x7f..)` marks exactly the zero bytes. In strict mode
        // `~((x & 0x7f..) + 0x60..) | x` marks exactly the bytes below 0x20 or above 0x7f.
        let w = (i - base) >> 2
        let x = words[w]!
        let y = x ^ 0x22222222
        // Bytes before `i` in its word are masked out.
        let hits =
          ~(((y & 0x7f7f7f7f) + 0x7f7f7f7f) | y | 0x7f7f7f7f) |
          (((y & 0x7f7f7f7f) + 0x02020202) & ~y & 0x80808080)
        if (strict) hits |= (~((x & 0x7f7f7f7f) + 0x60606060) | x) & 0x80808080
        hits &= -1 << (((i - base) & 3) << 3)
        // Bytes before `next` are consumed (an escape can reach into the next word).
        let next = i
        for (;;) {
          if (hits === 0) {
            if (++w >= wordCount) break
            // Two words a step while neither holds one of the bytes.
            for (; w + 1 < wordCount; w += 2) {
              const x0 = words[w]!
              const x1 = words[w + 1]!
              const y0 = x0 ^ 0x22222222
              const y1 = x1 ^ 0x22222222
              let any =
                ((((y0 & 0x7f7f7f7f) + 0x02020202) | (y0 - 0x01010101)) & ~y0) |
                ((((y1 & 0x7f7f7f7f) + 0x02020202) | (y1 - 0x01010101)) & ~y1)
              if (strict)
                any |=
                  ~((x0 & 0x7f7f7f7f) + 0x60606060) | x0 | ~((x1 & 0x7f7f7f7f) + 0x60606060) | x1
              if ((any & 0x80808080) !== 0) break
            }
            // The pairs may have run past the last word.
            if (w >= wordCount) break
            x = words[w]!
            y = x ^ 0x22222222
            hits =
              ~(((y & 0x7f7f7f7f) + 0x7f7f7f7f) | y | 0x7f7f7f7f) |
              (((y & 0x7f7f7f7f) + 0x02020202) & ~y & 0x80808080)
            if (strict) hits |= (~((x & 0x7f7f7f7f) + 0x60606060) | x) & 0x80808080
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
          if (c >= 0x80) {
            const end = utf8SequenceEnd(buf, p, n)
            if (end >= 0) {
              next = end
              continue
            }
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
          if (stringEvents[buf[j]!] === 1) {
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
        if (this.keyEnd < 0) this.keyEnd = this.position + i
        else if (this.watchedString) {
          this.watchedString = false
          observer!.end(this.position + i)
        }
        continue
      }
      if (c === Byte.CloseBracket) {
        if (at >= 15 && isRawPlaceholder(buf, at - 15)) this.record(at - 15, at + 1, found)
        i = at + 1
        continue
      }
      if (c !== Byte.Backslash) {
        // Strict mode only: a control character or the start of a UTF-8 sequence.
        if (c < 0x20) {
          this.fail('control-character', at, `control character ${hex(c)} in a string (escape it)`)
        }
        const end = utf8SequenceEnd(buf, at, n)
        if (end === UTF8_INVALID) this.fail('invalid-utf8', at)
        if (end === UTF8_CUT) {
          i = at
          break
        }
        i = end
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
    this.state = state
    this.inString = inString
    this.position += i
    return i
  }

  /** Scans a whole document held in one buffer: `scan` and `finish` at once. */
  scanWhole(document: Uint8Array): void {
    if (this.scan(document, null) < document.length) {
      // Only bytes inside a string are held back.
      throw new MalformedExportError(
        'unexpected-end',
        this.position + document.length,
        'the document ends inside a string',
      )
    }
    this.finish()
  }

  /** Throws unless the bytes scanned so far are a whole document. */
  finish(): void {
    if (!this.inString && this.depth === 0 && MAY_END[this.state] === 1) return
    const offset = this.position
    if (this.state === State.Root && !this.inString) {
      throw new MalformedExportError('not-an-object', offset, 'the document is empty')
    }
    const where = this.inString
      ? 'inside a string'
      : this.depth > 0
        ? `with ${this.depth} bracket${this.depth === 1 ? '' : 's'} still open`
        : this.state === State.Start
          ? 'before any value'
          : this.state <= State.ExpInt
            ? 'inside a number'
            : 'inside a literal'
    throw new MalformedExportError('unexpected-end', offset, `the document ends ${where}`)
  }

  /** Counts the placeholder at `[start, end)`; returns `end`. */
  private record(start: number, end: number, found: number[] | null): number {
    this.placeholders++
    this.placeholderBytes += end - start
    found?.push(start, end)
    return end
  }

  /** Tells the observer about the value starting at `at`, in a watched container or the root. */
  private report(kind: JsonKind, at: number): boolean {
    const offset = this.position + at
    if (this.depth === 0) return this.observer!.root(kind, offset)
    if (this.innermostIsObject()) {
      return this.observer!.member(this.keyStart, this.keyEnd, kind, offset)
    }
    return this.observer!.element(kind, offset)
  }

  private open(isObject: boolean, at: number): void {
    const d = this.depth
    if (d >= this.maxDepth) {
      this.fail('too-deep', at, `arrays and objects nest deeper than ${this.maxDepth} levels`)
    }
    this.depth = d + 1
    if (d >> 3 >= this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2)
      grown.set(this.stack)
      this.stack = grown
    }
    if (isObject) this.stack[d >> 3]! |= 1 << (d & 7)
    else this.stack[d >> 3]! &= ~(1 << (d & 7))
  }

  /** Pops a level; fails if there is none or it is of the other kind. */
  private close(isObject: boolean, at: number): void {
    const bracket = isObject ? '"}"' : '"]"'
    if (this.depth === 0) {
      this.fail('trailing-data', at, `unexpected ${bracket} after the end of the document`)
    }
    if (this.innermostIsObject() !== isObject) {
      const open = isObject ? '"["' : '"{"'
      this.fail('mismatched-bracket', at, `${bracket} cannot close the ${open} before it`)
    }
    this.depth--
    if (this.depth < this.watched) {
      this.watched = this.depth
      this.observer!.end(this.position + at + 1)
    }
  }

  private innermostIsObject(): boolean {
    const d = this.depth - 1
    return ((this.stack[d >> 3]! >> (d & 7)) & 1) === 1
  }

  /** Fails on a byte the grammar does not allow in `state`. */
  private unexpected(state: State, byte: number, at: number): never {
    const what = describeByte(byte)
    if (state === State.Root) {
      this.fail('not-an-object', at, `unexpected ${what}, the document must start with "{"`)
    }
    if (this.depth === 0 && (state === State.Closed || MAY_END[state] === 1)) {
      this.fail('trailing-data', at, `unexpected ${what} after the end of the document`)
    }
    this.fail('unexpected-byte', at, `unexpected ${what}, expected ${EXPECTED[state]}`)
  }

  private fail(reason: MalformedReason, at: number, detail?: string): never {
    throw new MalformedExportError(reason, this.position + at, detail ?? describeReason(reason))
  }
}

function scalarKind(byte: number): JsonKind {
  if (byte === 0x74 || byte === 0x66) return 'boolean'
  return byte === 0x6e ? 'null' : 'number'
}

function describeReason(reason: MalformedReason): string {
  if (reason === 'invalid-escape') return 'invalid escape sequence'
  if (reason === 'invalid-utf8') return 'invalid UTF-8'
  return reason
}

/** A byte for a message: itself when printable ASCII, else its hex value. */
function describeByte(byte: number): string {
  return byte > 0x20 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte ${hex(byte)}`
}

function hex(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`
}
