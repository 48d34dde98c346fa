/**
 * The placeholder and the bytes of JSON strings: byte tables, the placeholder matchers and the
 * word view the scanner's string scan reads through, shared by the scanner (scanner.ts), the
 * placeholder splicer and the publish validator. All work on UTF-8 bytes, never on decoded text:
 * decoding and re-encoding would cost more than the scan itself.
 */

/** Bytes the scanner looks at (constants, not an enum: see index.ts). */
export const Byte = {
  Quote: 0x22,
  Backslash: 0x5c,
  OpenBracket: 0x5b,
  CloseBracket: 0x5d,
  LowerU: 0x75,
} as const
export type Byte = number

/** What `matchPlaceholder` returns when it finds no placeholder end. */
export const Match = {
  /** The bytes at the position do not start a placeholder. */
  None: -1,
  /** The buffer ends before the match is decided: hold the bytes back. */
  NeedMore: -2,
} as const
export type Match = number

/** The placeholder; each of its 16 characters may be written raw or as a `\uHHHH` escape. */
export const PLACEHOLDER = '[MODELSERVERTAG]'
const PLACEHOLDER_BYTES = new TextEncoder().encode(PLACEHOLDER)
const PLACEHOLDER_UNITS = PLACEHOLDER_BYTES.length

/** Value of each hex digit, -1 for any other byte. */
const HEX_VALUE = new Int8Array(256).fill(-1)
for (let d = 0; d < 16; d++) {
  const digit = d.toString(16)
  HEX_VALUE[digit.charCodeAt(0)] = d
  HEX_VALUE[digit.toUpperCase().charCodeAt(0)] = d
}

/** Per RFC 8259 section 7, the bytes that may follow a backslash (`u` is handled apart). */
export const IS_SHORT_ESCAPE = new Uint8Array(256)
for (const c of '"\\/bfnrt') IS_SHORT_ESCAPE[c.charCodeAt(0)] = 1

/** The bytes a string scan stops at: its end, an escape, a placeholder's last character. */
export const IS_STRING_EVENT = new Uint8Array(256)
IS_STRING_EVENT[Byte.Quote] =
  IS_STRING_EVENT[Byte.Backslash] =
  IS_STRING_EVENT[Byte.CloseBracket] =
    1

/** The code unit written by the `\uHHHH` escape whose backslash is at `at`, or -1 if invalid. */
export function escapedUnit(buf: Uint8Array, at: number): number {
  const a = HEX_VALUE[buf[at + 2]!]!
  const b = HEX_VALUE[buf[at + 3]!]!
  const c = HEX_VALUE[buf[at + 4]!]!
  const d = HEX_VALUE[buf[at + 5]!]!
  if ((a | b | c | d) < 0) return -1
  return (a << 12) | (b << 8) | (c << 4) | d
}

/**
 * Whether the 16 units from `at` (a `[` or a backslash, inside a string) spell the placeholder.
 * Returns the index just past it, `Match.None`, or `Match.NeedMore` when `end` comes first.
 */
export function matchPlaceholder(buf: Uint8Array, at: number, end: number): number {
  if (at + 16 <= end && isRawPlaceholder(buf, at)) return at + 16
  let i = at
  for (let k = 0; k < PLACEHOLDER_UNITS; k++) {
    if (i >= end) return Match.NeedMore
    const expected = PLACEHOLDER_BYTES[k]!
    const c = buf[i]!
    if (c === expected) {
      i++
      continue
    }
    if (c !== Byte.Backslash) return Match.None
    if (i + 1 >= end) return Match.NeedMore
    if (buf[i + 1] !== Byte.LowerU) return Match.None
    if (i + 6 > end) return Match.NeedMore
    if (escapedUnit(buf, i) !== expected) return Match.None
    i += 6
  }
  return i
}

/**
 * For the first escape of a placeholder, at `at` and writing `code`: where the placeholder would
 * start, the units before it being raw bytes; -1 if they do not spell its beginning.
 */
export function placeholderBefore(buf: Uint8Array, at: number, code: number): number {
  for (let k = 1; k < PLACEHOLDER_UNITS && k <= at; k++) {
    if (PLACEHOLDER_BYTES[k] === code && isRawPrefix(buf, at - k, k)) return at - k
  }
  return -1
}

/** Where raw bytes just before `at` begin to spell the placeholder, or `at`: what to hold back. */
export function rawPrefixStart(buf: Uint8Array, at: number): number {
  for (let k = Math.min(PLACEHOLDER_UNITS - 1, at); k >= 1; k--) {
    if (isRawPrefix(buf, at - k, k)) return at - k
  }
  return at
}

/** Whether the `length` bytes at `start` are the placeholder's first `length` characters, raw. */
function isRawPrefix(buf: Uint8Array, start: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (buf[start + k] !== PLACEHOLDER_BYTES[k]) return false
  return true
}

/** Whether the 16 bytes at `at` are `[MODELSERVERTAG]`, spelled out for speed. */
export function isRawPlaceholder(buf: Uint8Array, at: number): boolean {
  return (
    buf[at] === 0x5b &&
    buf[at + 1] === 0x4d &&
    buf[at + 2] === 0x4f &&
    buf[at + 3] === 0x44 &&
    buf[at + 4] === 0x45 &&
    buf[at + 5] === 0x4c &&
    buf[at + 6] === 0x53 &&
    buf[at + 7] === 0x45 &&
    buf[at + 8] === 0x52 &&
    buf[at + 9] === 0x56 &&
    buf[at + 10] === 0x45 &&
    buf[at + 11] === 0x52 &&
    buf[at + 12] === 0x54 &&
    buf[at + 13] === 0x41 &&
    buf[at + 14] === 0x47 &&
    buf[at + 15] === 0x5d
  )
}

/** The word scan reads the first byte of a word as its lowest bits. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
const NO_WORDS = new Int32Array(0)

/**
 * Four-byte words of `buf`, read through an aligned `Int32Array`, so the string scan can test
 * four bytes per step (typed array `indexOf` is a byte loop in V8, one byte value per call).
 * Empty on a big-endian machine, where every byte then takes the byte-by-byte path.
 */
export class WordView {
  readonly words: Int32Array
  /** Index in `buf` of the first byte of `words[0]`. */
  readonly base: number

  constructor(buf: Uint8Array) {
    const skip = (4 - (buf.byteOffset & 3)) & 3
    if (!LITTLE_ENDIAN || buf.length < skip + 4) {
      this.base = buf.length
      this.words = NO_WORDS
    } else {
      this.base = skip
      this.words = new Int32Array(buf.buffer, buf.byteOffset + skip, (buf.length - skip) >>> 2)
    }
  }
}
