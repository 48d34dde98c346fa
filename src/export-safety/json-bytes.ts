/**
 * Reading a JSON document's bytes without parsing it into objects: the members of one object,
 * the elements of one array, one string decoded. A checked field is read string by string, and
 * everything else is skipped, so memory stays the document plus one string, however large the
 * export. The document must already be valid JSON (the publish validator or `JSON.parse` said
 * so); on other bytes the results are unspecified but every call ends.
 *
 * Why not src/json/'s scanner, which validation and substitution read with: the check goes back
 * (members by name, frames' offsets kept to check later) where the scanner is pushed buffers and
 * never goes back, and this room imports nothing of src/ since it ships in the client. The two
 * are held to the same vectors (test/json/two-readers.test.ts); more in docs/architecture.md,
 * "Which reader reads what".
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c

/**
 * What to read of a value: nothing (`null`: a member read so is not kept), its type and extent
 * (`extent`), its members when it is an object (each read as the function says for its name),
 * or its elements when it is an array.
 */
export type Reading =
  null | { extent: true } | { members: (name: string) => Reading } | { elements: true }

/** A value as read: where it is, and what `Reading` asked for. */
export interface JsonNode {
  type: JsonType
  /** Its first byte. */
  start: number
  /** Just after its last byte. */
  end: number
  /** An object read by members: its members by name. */
  members?: Map<string, JsonNode>
  /** An array read by elements: each element's start and end, two numbers each. */
  elements?: Uint32Array
}

/** A JSON value's type, told by its first byte. */
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'

/** Thrown on bytes that are not JSON (only reachable when the caller skipped validation). */
export class NotJsonError extends Error {
  override name = 'NotJsonError'
}

/** A valid JSON document's bytes, read where asked. Offsets point at a value's first byte. */
export class JsonBytes {
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
  /**
   * Where arrays read by elements keep their elements' offsets: outside the JavaScript heap, so
   * that a model's many frames add no objects for the collector to copy.
   */
  private offsets = new Uint32Array(1024)
  private offsetCount = 0

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  /** The offset of the root value. */
  root(): number {
    return this.skipSpace(0)
  }

  /** The type of the value at `offset`. */
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
   * The value at `offset`, read as `reading` asks: always its type and extent; for an object read
   * by members, each member read as `reading.members(name)` asks, those read as `null` left out
   * (a repeated name keeps its first place and its last value, as `JSON.parse` and Gson keep
   * it); for an array read by
   * elements, where each element starts and ends. One pass over the bytes, whatever the depth.
   */
  read(offset: number, reading: Reading): JsonNode {
    const type = this.typeAt(offset)
    if (type === 'object' && reading !== null && 'members' in reading) {
      return this.readMembers(offset, reading.members)
    }
    if (type === 'array' && reading !== null && 'elements' in reading) {
      const first = this.offsetCount
      const end = this.scanElements(offset)
      return { type, start: offset, end, elements: this.offsets.subarray(first, this.offsetCount) }
    }
    return { type, start: offset, end: this.valueEnd(offset) }
  }

  /**
   * Visits the members of the object at `offset` in document order, repeated names included,
   * keeping none of them: `visit(name, valueStart)` reads the value and returns where it ends, or
   * -1 to stop. Returns the offset after the object, or -1 when a visit stopped.
   */
  forEachMember(offset: number, visit: (name: string, valueStart: number) => number): number {
    let i = this.skipSpace(offset + 1)
    if (this.bytes[i] === CLOSE_OBJECT) return i + 1
    for (;;) {
      const nameEnd = this.stringEnd(i)
      const name = this.decodeString(i, nameEnd)
      const end = visit(name, this.skipSpace(this.skipSpace(nameEnd) + 1))
      if (end < 0) return -1
      i = this.skipSpace(end)
      if (this.bytes[i] !== COMMA) return i + 1
      i = this.skipSpace(i + 1)
    }
  }

  /** The offset just after the value at `offset`, read by nothing. */
  skip(offset: number): number {
    return this.valueEnd(offset)
  }

  /**
   * Reads keyframes (animation → frame → array) at `offset` in one pass, keeping where each
   * part is so that they can be checked later without a second pass, as long as that takes at
   * most `budget` numbers: per animation its name's and value's offsets and its frame count
   * (-1: not an object), then per frame its name's and value's offsets and the index and count
   * of its elements in `elementAt` (-1: not an array). Over the budget, only the extent is read
   * (`records` null). Names are not decoded.
   */
  recordKeyframes(offset: number, budget: number): { end: number; records: number[] | null } {
    const mark = this.offsetCount
    let records: number[] | null = []
    const end = this.eachMemberRaw(offset, (animationName, animation) => {
      if (records === null || this.bytes[animation] !== OPEN_OBJECT) {
        records?.push(animationName, animation, -1)
        return this.valueEnd(animation)
      }
      const head = records.length
      records.push(animationName, animation, 0)
      const animationEnd = this.eachMemberRaw(animation, (frameName, frame) => {
        if (records === null) return this.valueEnd(frame)
        if (records.length > budget) {
          records = null
          return this.valueEnd(frame)
        }
        records[head + 2]!++
        if (this.bytes[frame] !== OPEN_ARRAY) {
          records.push(frameName, frame, -1, 0)
          return this.valueEnd(frame)
        }
        const first = this.offsetCount
        const frameEnd = this.scanElements(frame)
        records.push(frameName, frame, first, (this.offsetCount - first) / 2)
        return frameEnd
      })
      return animationEnd
    })
    if (records === null) this.offsetCount = mark
    return { end, records }
  }

  /** The elements a record kept: `count` of them from offset index `first`. */
  elementsAt(first: number, count: number): Uint32Array {
    return this.offsets.subarray(first, first + 2 * count)
  }

  /** `forEachMember` without decoding names: `visit(nameStart, valueStart)`. */
  private eachMemberRaw(offset: number, visit: (nameStart: number, valueStart: number) => number) {
    let i = this.skipSpace(offset + 1)
    if (this.bytes[i] === CLOSE_OBJECT) return i + 1
    for (;;) {
      const nameEnd = this.stringEnd(i)
      const end = visit(i, this.skipSpace(this.skipSpace(nameEnd) + 1))
      i = this.skipSpace(end)
      if (this.bytes[i] !== COMMA) return i + 1
      i = this.skipSpace(i + 1)
    }
  }

  /** Where the element offsets read from now on start: `release` frees them again. */
  mark(): number {
    return this.offsetCount
  }

  /** Forgets the element offsets read since `mark` (their views must no longer be used). */
  release(mark: number): void {
    this.offsetCount = mark
  }

  private readMembers(offset: number, readingOf: (name: string) => Reading): JsonNode {
    const members = new Map<string, JsonNode>()
    let i = this.skipSpace(offset + 1)
    if (this.bytes[i] === CLOSE_OBJECT)
      return { type: 'object', start: offset, end: i + 1, members }
    for (;;) {
      const nameEnd = this.stringEnd(i)
      // Not through the window: a name is short, and moving the window to each member would
      // decode most of the document once more.
      const name = this.decodeString(i, nameEnd)
      const valueStart = this.skipSpace(this.skipSpace(nameEnd) + 1)
      const reading = readingOf(name)
      let end: number
      if (reading === null) end = this.valueEnd(valueStart)
      else {
        const value = this.read(valueStart, reading)
        // A repeated name keeps its first place and its last value.
        members.set(name, value)
        end = value.end
      }
      i = this.skipSpace(end)
      if (this.bytes[i] !== COMMA) return { type: 'object', start: offset, end: i + 1, members }
      i = this.skipSpace(i + 1)
    }
  }

  /**
   * Appends the elements of the array at `offset` to `offsets`; returns the offset after it. A
   * full `offsets` is replaced by a larger one: the arrays read before keep their views of it.
   */
  private scanElements(offset: number): number {
    let i = this.skipSpace(offset + 1)
    if (this.bytes[i] === CLOSE_ARRAY) return i + 1
    for (;;) {
      const end = this.valueEnd(i)
      if (this.offsetCount + 2 > this.offsets.length) {
        const larger = new Uint32Array(this.offsets.length * 2)
        larger.set(this.offsets)
        this.offsets = larger
      }
      this.offsets[this.offsetCount++] = i
      this.offsets[this.offsetCount++] = end
      i = this.skipSpace(end)
      if (this.bytes[i] !== COMMA) return i + 1
      i = this.skipSpace(i + 1)
    }
  }

  /**
   * The string at `[start, end)` (`end` when known from `elements`), escapes decoded. `alone`:
   * decoded on its own, never kept in the window (a large string costs one copy, not two).
   */
  string(start: number, end = this.stringEnd(start), alone = false): string {
    if (alone && end - start > WINDOW_BYTES) return this.decodeString(start, end)
    if (start < this.windowStart || end > this.windowEnd) this.decodeWindow(start, end)
    if (!this.windowIsAscii) return this.decodeString(start, end)
    // ASCII: byte offsets are character offsets in the window's text.
    const from = start - this.windowStart
    const text = this.windowText.slice(from + 1, end - 1 - this.windowStart)
    if (text.indexOf('\\') < 0) return text
    return JSON.parse(this.windowText.slice(from, end - this.windowStart)) as string
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
   * Decodes the bytes from `start`, at least to `end` and up to `WINDOW_BYTES`: the strings of
   * a frame follow one another, and one decoder call for many of them costs far less than one
   * each. Only an all-ASCII window is read from; the bound keeps its text small.
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
    const quote = bytes.indexOf(QUOTE, offset + 1)
    if (quote < 0) throw new NotJsonError('the document ends inside a string')
    let backslashes = 0
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    // An escaped quote: escapes are many in this string (JSON text in a command), and a loop
    // over its bytes costs less than a native search stopped at each of them.
    for (let i = quote + 1; i < bytes.length; i++) {
      const byte = bytes[i]
      if (byte === QUOTE) return i + 1
      if (byte === BACKSLASH) i++
    }
    throw new NotJsonError('the document ends inside a string')
  }

  private skipSpace(offset: number): number {
    let i = offset
    while (IS_SPACE[this.bytes[i]!] === 1) i++
    return i
  }
}

/** Bytes decoded at once for the strings that follow one another (see `decodeWindow`). */
const WINDOW_BYTES = 8 * 1024

/** JSON's whitespace: space, tab, line feed, carriage return. */
const IS_SPACE = new Uint8Array(256)
IS_SPACE[0x20] = IS_SPACE[0x09] = IS_SPACE[0x0a] = IS_SPACE[0x0d] = 1

/** Bytes that end a number or literal. */
const ENDS_SCALAR = new Uint8Array(256)
ENDS_SCALAR[COMMA] = ENDS_SCALAR[CLOSE_OBJECT] = ENDS_SCALAR[CLOSE_ARRAY] = 1
ENDS_SCALAR[0x20] = ENDS_SCALAR[0x09] = ENDS_SCALAR[0x0a] = ENDS_SCALAR[0x0d] = 1
