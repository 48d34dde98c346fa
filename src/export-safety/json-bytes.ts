/**
 * Reading a JSON document's bytes without parsing it into objects: the members of one object,
 * the elements of one array, one string decoded. A checked field is read string by string, and
 * everything else is skipped, so memory stays the document plus one string, however large the
 * export. The document must already be valid JSON (the publish validator or `JSON.parse` said
 * so); on other bytes the results are unspecified but every call ends.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c

/** A JSON value's type, told by its first byte. */
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'

/** Thrown on bytes that are not JSON (only reachable when the caller skipped validation). */
export class NotJsonError extends Error {
  override name = 'NotJsonError'
}

/** A valid JSON document's bytes, read where asked. Offsets point at a value's first byte. */
export class JsonBytes {
  private readonly bytes: Uint8Array
  private readonly decoder = new TextDecoder()

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  /** The offset of the root value. */
  root(): number {
    return this.skipSpace(0)
  }

  typeAt(offset: number): JsonType {
    const byte = this.bytes[offset]
    if (byte === OPEN_OBJECT) return 'object'
    if (byte === OPEN_ARRAY) return 'array'
    if (byte === QUOTE) return 'string'
    if (byte === 0x74 || byte === 0x66) return 'boolean'
    if (byte === 0x6e) return 'null'
    if (byte === 0x2d || (byte !== undefined && byte >= 0x30 && byte <= 0x39)) return 'number'
    throw new NotJsonError(`no JSON value at byte ${offset}`)
  }

  /**
   * The members of the object at `offset`: name to value offset. A repeated name keeps its
   * first place and its last value, as `JSON.parse` and Gson keep it.
   */
  members(offset: number): Map<string, number> {
    const found = new Map<string, number>()
    let i = this.skipSpace(offset + 1)
    if (this.bytes[i] === CLOSE_OBJECT) return found
    for (;;) {
      const nameEnd = this.stringEnd(i)
      const name = this.decodeString(i, nameEnd)
      const value = this.skipSpace(this.skipSpace(nameEnd) + 1)
      found.set(name, value)
      i = this.skipSpace(this.valueEnd(value))
      if (this.bytes[i] !== COMMA) return found
      i = this.skipSpace(i + 1)
    }
  }

  /** The elements of the array at `offset`: their start and end offsets, two numbers each. */
  elements(offset: number): number[] {
    const found: number[] = []
    let i = this.skipSpace(offset + 1)
    if (this.bytes[i] === CLOSE_ARRAY) return found
    for (;;) {
      const end = this.valueEnd(i)
      found.push(i, end)
      i = this.skipSpace(end)
      if (this.bytes[i] !== COMMA) return found
      i = this.skipSpace(i + 1)
    }
  }

  /** The string at `[start, end)` (`end` when known from `elements`), escapes decoded. */
  string(start: number, end = this.stringEnd(start)): string {
    return this.decodeString(start, end)
  }

  private decodeString(start: number, end: number): string {
    const inner = this.bytes.subarray(start + 1, end - 1)
    if (inner.indexOf(BACKSLASH) < 0) return this.decoder.decode(inner)
    return JSON.parse(this.decoder.decode(this.bytes.subarray(start, end))) as string
  }

  /** The offset just after the value at `offset`. */
  private valueEnd(offset: number): number {
    const bytes = this.bytes
    const first = bytes[offset]
    if (first === QUOTE) return this.stringEnd(offset)
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let depth = 1
      let i = offset + 1
      while (depth > 0) {
        if (i >= bytes.length) throw new NotJsonError('the document ends inside a value')
        const byte = bytes[i]!
        if (byte === QUOTE) {
          i = this.stringEnd(i)
          continue
        }
        if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++
        else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--
        i++
      }
      return i
    }
    let i = offset + 1
    while (i < bytes.length && !ENDS_SCALAR[bytes[i]!]) i++
    return i
  }

  /** The offset just after the string whose opening quote is at `offset`. */
  private stringEnd(offset: number): number {
    const bytes = this.bytes
    if (bytes[offset] !== QUOTE) throw new NotJsonError(`no string at byte ${offset}`)
    let from = offset + 1
    for (;;) {
      const quote = bytes.indexOf(QUOTE, from)
      if (quote < 0) throw new NotJsonError('the document ends inside a string')
      let backslashes = 0
      while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++
      if (backslashes % 2 === 0) return quote + 1
      from = quote + 1
    }
  }

  private skipSpace(offset: number): number {
    let i = offset
    while (IS_SPACE[this.bytes[i]!] === 1) i++
    return i
  }
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
const IS_SPACE = new Uint8Array(256)
IS_SPACE[0x20] = IS_SPACE[0x09] = IS_SPACE[0x0a] = IS_SPACE[0x0d] = 1

/** Bytes that end a number or literal. */
const ENDS_SCALAR = new Uint8Array(256)
ENDS_SCALAR[COMMA] = ENDS_SCALAR[CLOSE_OBJECT] = ENDS_SCALAR[CLOSE_ARRAY] = 1
ENDS_SCALAR[0x20] = ENDS_SCALAR[0x09] = ENDS_SCALAR[0x0a] = ENDS_SCALAR[0x0d] = 1
