/**
 * A reader of SNBT, Minecraft's text form of NBT, as the editor writes it into exports:
 * compounds `{k:v}`, lists `[a,b]`, typed arrays `[B;..]`, `[I;..]`, `[L;..]`, numbers with the
 * suffixes `b`, `s`, `L`, `f`, `d` (none: an int, or a double when written with a point or an
 * exponent), `true`/`false` (bytes 1 and 0), quoted strings (`"..."` or `'...'`, backslash
 * escapes) and unquoted ones. It is lenient where real exports are sloppy: whitespace anywhere
 * and empty entries (`shadow: 1b,,Tags:[...]` occurs in a real export).
 *
 * It never throws: a reading is `{ ok: true, value }` or `{ ok: false, message, offset }`.
 * Nesting deeper than SNBT_MAX_DEPTH is refused rather than recursed into, so a hostile string
 * cannot exhaust the stack; every other step is linear in the input.
 */

/** Minecraft's own limit on NBT nesting. */
export const SNBT_MAX_DEPTH = 512

/** A compound: string keys, no prototype, so a key like `__proto__` is just a key. */
export interface SnbtCompound {
  readonly [key: string]: SnbtValue
}

/** A value. Numbers of every width are JS numbers (a long beyond 2^53 loses precision). */
export type SnbtValue =
  number | string | SnbtValue[] | SnbtCompound | Int8Array | Int32Array | BigInt64Array

/** The outcome of reading SNBT text. */
export type SnbtReading =
  { ok: true; value: SnbtValue } | { ok: false; message: string; offset: number }

/** Reads one SNBT value that spans all of `text` (surrounding whitespace allowed). */
export function readSnbt(text: string, maxDepth = SNBT_MAX_DEPTH): SnbtReading {
  const reader = new Reader(text, maxDepth)
  try {
    const value = reader.value(0)
    reader.skipSpace()
    if (reader.at < text.length) reader.fail('unexpected text after the value')
    return { ok: true, value }
  } catch (error) {
    if (error instanceof SnbtError) return { ok: false, message: error.message, offset: error.at }
    // A RangeError (stack, memory) or a bug: still an unreadable string, not a crash.
    return { ok: false, message: String(error), offset: reader.at }
  }
}

/** Whether a value is a compound (not a list, typed array, number or string). */
export function isCompound(value: SnbtValue | undefined): value is SnbtCompound {
  return typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)
}

class SnbtError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message)
  }
}

// Minecraft's number grammar. Anchored, and each run of digits can be matched one way only, so
// a megabyte token is tested in linear time.
const DOUBLE = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?d?$/i
const FLOAT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?f$/i
const INTEGER = /^[-+]?\d+[bsl]?$/i
const HAS_POINT_OR_EXPONENT = /[.e]/i

class Reader {
  at = 0

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  value(depth: number): SnbtValue {
    this.skipSpace()
    const char = this.text[this.at]
    if (char === '{') return this.compound(depth + 1)
    if (char === '[') return this.list(depth + 1)
    if (char === '"' || char === "'") return this.quoted()
    const start = this.at
    const token = this.unquoted()
    if (token === '')
      this.fail(char === undefined ? 'the text ends early' : `unexpected "${char}"`, start)
    return scalar(token)
  }

  private compound(depth: number): SnbtCompound {
    this.enter(depth)
    const entries: Record<string, SnbtValue> = Object.create(null) as Record<string, SnbtValue>
    this.at++
    for (;;) {
      this.skipSeparators()
      if (this.take('}')) return entries
      const keyAt = this.at
      const char = this.text[this.at]
      const key = char === '"' || char === "'" ? this.quoted() : this.unquoted()
      if (key === '' && char !== '"' && char !== "'") this.fail('expected a key', keyAt)
      this.skipSpace()
      if (!this.take(':')) this.fail(`expected ":" after the key "${key.slice(0, 40)}"`)
      entries[key] = this.value(depth)
      this.endOfEntry('}')
    }
  }

  private list(depth: number): SnbtValue[] | Int8Array | Int32Array | BigInt64Array {
    this.enter(depth)
    this.at++
    const type = this.text[this.at]
    if ((type === 'B' || type === 'I' || type === 'L') && this.text[this.at + 1] === ';') {
      this.at += 2
      return this.typedArray(type)
    }
    const items: SnbtValue[] = []
    for (;;) {
      this.skipSeparators()
      if (this.take(']')) return items
      items.push(this.value(depth))
      this.endOfEntry(']')
    }
  }

  private typedArray(type: 'B' | 'I' | 'L'): Int8Array | Int32Array | BigInt64Array {
    const items: number[] = []
    const longs: bigint[] = []
    for (;;) {
      this.skipSeparators()
      if (this.take(']')) break
      const start = this.at
      const token = this.unquoted()
      if (!INTEGER.test(token)) this.fail(`[${type};...] holds a non-integer`, start)
      const digits = token.replace(/[bsl]$/i, '')
      if (type === 'L') longs.push(BigInt.asIntN(64, BigInt(digits)))
      else items.push(Number(digits))
      this.endOfEntry(']')
    }
    if (type === 'B') return Int8Array.from(items)
    if (type === 'I') return Int32Array.from(items)
    return BigInt64Array.from(longs)
  }

  private quoted(): string {
    const quote = this.text[this.at]
    const start = this.at
    this.at++
    let result = ''
    let chunk = this.at
    for (;;) {
      const char = this.text[this.at]
      if (char === undefined) this.fail('a quoted string is not closed', start)
      if (char === quote) {
        result += this.text.slice(chunk, this.at)
        this.at++
        return result
      }
      if (char === '\\') {
        result += this.text.slice(chunk, this.at) + this.escaped(this.at)
        chunk = this.at
      } else {
        this.at++
      }
    }
  }

  /** The character of the escape at `backslash`; moves past it. */
  private escaped(backslash: number): string {
    const code = this.text[backslash + 1]
    this.at = backslash + 2
    switch (code) {
      case 'n':
        return '\n'
      case 't':
        return '\t'
      case 'r':
        return '\r'
      case 'b':
        return '\b'
      case 'f':
        return '\f'
      case 's':
        return ' '
      case 'x':
      case 'u':
      case 'U': {
        const length = code === 'x' ? 2 : code === 'u' ? 4 : 8
        const hex = this.text.slice(this.at, this.at + length)
        if (!/^[0-9a-f]+$/i.test(hex) || hex.length !== length) this.fail('a bad escape', backslash)
        this.at += length
        const point = parseInt(hex, 16)
        if (point > 0x10ffff) this.fail('a bad escape', backslash)
        return String.fromCodePoint(point)
      }
      case undefined:
        return this.fail('a quoted string is not closed', backslash)
      default:
        return code // \\, \", \' and anything else stand for themselves
    }
  }

  private unquoted(): string {
    const start = this.at
    while (this.at < this.text.length && isUnquotedChar(this.text.charCodeAt(this.at))) this.at++
    return this.text.slice(start, this.at)
  }

  private endOfEntry(close: string): void {
    this.skipSpace()
    const char = this.text[this.at]
    if (char === ',' || char === close) return
    this.fail(char === undefined ? 'the text ends early' : `expected "," or "${close}"`)
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) this.fail(`nested deeper than ${this.maxDepth}`)
  }

  /** Whitespace and commas: empty entries are skipped. */
  private skipSeparators(): void {
    for (;;) {
      this.skipSpace()
      if (!this.take(',')) return
    }
  }

  skipSpace(): void {
    while (this.at < this.text.length && isSpace(this.text.charCodeAt(this.at))) this.at++
  }

  private take(char: string): boolean {
    if (this.text[this.at] !== char) return false
    this.at++
    return true
  }

  fail(message: string, at = this.at): never {
    throw new SnbtError(`${message} (at character ${at})`, at)
  }
}

function scalar(token: string): SnbtValue {
  if (INTEGER.test(token)) return Number(token.replace(/[bsl]$/i, ''))
  if (FLOAT.test(token)) return Number(token.slice(0, -1))
  if (DOUBLE.test(token) && (HAS_POINT_OR_EXPONENT.test(token) || /d$/i.test(token))) {
    return Number(token.replace(/d$/i, ''))
  }
  if (token === 'true') return 1
  if (token === 'false') return 0
  return token
}

/** Characters of an unquoted token: letters, digits, `_ - . +`. */
function isUnquotedChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 45 ||
    code === 46 ||
    code === 43
  )
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13
}
