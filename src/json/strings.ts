/**
 * The strings of a JSON document the scanner delimited, decoded one at a time: its observer
 * learns where a watched string starts and ends, and this decodes it as `JSON.parse` would.
 * Decoding is the only reading left after the scan, so it needs no grammar: the bytes are valid
 * JSON (the scan said so), and a value's kind is its first byte.
 */
import type { JsonKind } from './scanner.js'

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Bytes decoded at once for the strings that follow one another (see `decodeWindow`). */
const WINDOW_BYTES = 8 * 1024

/** The decoded strings of one scanned document. */
export class JsonStrings {
  private readonly bytes: Uint8Array
  /**
   * Decodes as `JSON.parse` and Gson read: a U+FEFF is a character like any other (a default
   * `TextDecoder` drops one at the start of every call, so a name `"\uFEFFcontent"` written raw
   * would read as `content`).
   */
  private readonly decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })
  /** Decoded text of the bytes `[windowStart, windowEnd)` (see `decodeWindow`). */
  private windowText = ''
  private windowStart = 0
  private windowEnd = 0
  private windowIsAscii = false

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  /** The kind of the value whose first byte is at `offset`. */
  kindAt(offset: number): JsonKind {
    const byte = this.bytes[offset]
    if (byte === 0x7b) return 'object'
    if (byte === 0x5b) return 'array'
    if (byte === QUOTE) return 'string'
    if (byte === 0x74 || byte === 0x66) return 'boolean'
    return byte === 0x6e ? 'null' : 'number'
  }

  /**
   * The string at `[start, end)`, quotes included, escapes decoded, read through a window of the
   * strings around it (frames' strings follow one another). `alone`: decoded on its own, never
   * kept in the window (a large string costs one copy, not two).
   */
  string(start: number, end: number, alone = false): string {
    if (alone && end - start > WINDOW_BYTES) return this.decode(start, end)
    if (start < this.windowStart || end > this.windowEnd) this.decodeWindow(start, end)
    if (!this.windowIsAscii) return this.decode(start, end)
    // ASCII: byte offsets are character offsets in the window's text.
    const from = start - this.windowStart
    const text = this.windowText.slice(from + 1, end - 1 - this.windowStart)
    if (text.indexOf('\\') < 0) return text
    return JSON.parse(this.windowText.slice(from, end - this.windowStart)) as string
  }

  /**
   * The string at `[start, end)` decoded on its own, not through the window: a member's name is
   * short, and moving the window to each member would decode most of the document once more.
   */
  name(start: number, end: number): string {
    return this.decode(start, end)
  }

  /**
   * The document's text around the string at `[start, end)` as written (escapes undecoded), when
   * all of it is ASCII: the string sits at `[start - textStart(), end - textStart())` of it.
   * Null otherwise. Reading a string there costs no copy of it.
   */
  asciiText(start: number, end: number): string | null {
    if (start < this.windowStart || end > this.windowEnd) this.decodeWindow(start, end)
    return this.windowIsAscii ? this.windowText : null
  }

  /** The document offset of the first character of `asciiText`'s answer. */
  textStart(): number {
    return this.windowStart
  }

  /**
   * Decodes the bytes from `start`, at least to `end` and up to `WINDOW_BYTES`: one decoder call
   * for many strings costs far less than one each. Only an all-ASCII window is read from; the
   * bound keeps its text small.
   */
  private decodeWindow(start: number, end: number): void {
    const bytes = this.bytes
    const windowEnd = Math.min(bytes.length, Math.max(end, start + WINDOW_BYTES))
    this.windowText = this.decoder.decode(bytes.subarray(start, windowEnd))
    // Valid UTF-8 decodes to fewer characters than bytes unless all of it is ASCII, but for a
    // lead byte cut at the window's end (one replacement character): hence the last byte's test.
    this.windowIsAscii =
      this.windowText.length === windowEnd - start && bytes[windowEnd - 1]! < 0x80
    this.windowStart = start
    this.windowEnd = windowEnd
  }

  private decode(start: number, end: number): string {
    const inner = this.bytes.subarray(start + 1, end - 1)
    const backslash = inner.indexOf(BACKSLASH)
    if (backslash < 0) return this.decoder.decode(inner)
    if (inner.length > WINDOW_BYTES) {
      const bytes = unescapedBytes(inner, backslash)
      if (bytes !== null) return this.decoder.decode(bytes)
    }
    return JSON.parse(this.decoder.decode(this.bytes.subarray(start, end))) as string
  }
}

/** The byte each one-character escape stands for (`\"` is `"`), by the byte after the `\`. */
const ESCAPED = new Uint8Array(0x80)
for (const [escape, byte] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
] as const) {
  ESCAPED[escape.charCodeAt(0)] = byte
}

/**
 * The UTF-8 of a JSON string's value, its escapes (`inner`'s first at `first`) written as the
 * bytes of what they stand for: decoded once, a large string costs one copy as text, not the
 * escaped text and then the value (an unescaped copy as bytes is let go with its buffer, at the
 * next minor collection). The bytes are valid JSON (the scan said so). Null when an escape
 * stands for a lone surrogate, which UTF-8 cannot hold (`JSON.parse` keeps it).
 */
function unescapedBytes(inner: Uint8Array, first: number): Uint8Array | null {
  // A copy of all of it, then each run between escapes moved back over what the escapes before
  // it saved, by native copies: `out` is written only behind where `inner` is read.
  const out = new Uint8Array(inner)
  let length = first
  for (let i = first; i < inner.length;) {
    if (inner[i] !== BACKSLASH) {
      let next = inner.indexOf(BACKSLASH, i)
      if (next < 0) next = inner.length
      if (length !== i) out.copyWithin(length, i, next)
      length += next - i
      i = next
      continue
    }
    const kind = inner[i + 1]!
    if (kind !== 0x75) {
      out[length++] = ESCAPED[kind]!
      i += 2
      continue
    }
    let unit = hexAt(inner, i + 2)
    i += 6
    if (unit >= 0xd800 && unit <= 0xdfff) {
      // A pair: a high surrogate, then `\u` and a low one.
      const low = inner[i] === BACKSLASH && inner[i + 1] === 0x75 ? hexAt(inner, i + 2) : -1
      if (unit > 0xdbff || low < 0xdc00 || low > 0xdfff) return null
      unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
      i += 6
    }
    length = writeUtf8(out, length, unit)
  }
  return out.subarray(0, length)
}

/** The four hex digits at `at` as a number. */
function hexAt(bytes: Uint8Array, at: number): number {
  let value = 0
  for (let k = at; k < at + 4; k++) {
    const digit = bytes[k]!
    value = value * 16 + (digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x57)
  }
  return value
}

/**
 * Writes the UTF-8 of `codePoint` at `at`; where it ends. An escape is at least 2 bytes for 1,
 * 6 for up to 3 and 12 for 4, so the value never outgrows the escaped bytes.
 */
function writeUtf8(out: Uint8Array, at: number, codePoint: number): number {
  if (codePoint < 0x80) {
    out[at] = codePoint
    return at + 1
  }
  if (codePoint < 0x800) {
    out[at] = 0xc0 | (codePoint >> 6)
    out[at + 1] = 0x80 | (codePoint & 0x3f)
    return at + 2
  }
  if (codePoint < 0x10000) {
    out[at] = 0xe0 | (codePoint >> 12)
    out[at + 1] = 0x80 | ((codePoint >> 6) & 0x3f)
    out[at + 2] = 0x80 | (codePoint & 0x3f)
    return at + 3
  }
  out[at] = 0xf0 | (codePoint >> 18)
  out[at + 1] = 0x80 | ((codePoint >> 12) & 0x3f)
  out[at + 2] = 0x80 | ((codePoint >> 6) & 0x3f)
  out[at + 3] = 0x80 | (codePoint & 0x3f)
  return at + 4
}
