/**
 * SNBT (the game's text form of entity data) as real exports write it, parsed whole into a small
 * tree. Two liberties of real exports are accepted: a space around `:` and `,`, and empty members
 * in a compound (`shadow:1b,,Tags:[...]`, which the game's own parser skips). Nothing may follow
 * the value: a string that closes its compound early and goes on (`...}]} op @a`) is refused.
 *
 * Written by hand rather than taken from a library: the SNBT parsers on the registry either fail
 * on the empty members of real exports or parse binary NBT only, and the Worker keeps `hono` as
 * its one runtime dependency.
 */
import { UnsafeContent } from './refusal.js'
import { MAX_SNBT_DEPTH, READER_MARKERS, TEXT_KEYS } from './vocabulary.js'

/**
 * The members of a compound whose values the checks read (an entity's id, tags and passengers,
 * its JSON text and its item); every other value is parsed to its end and dropped, so that a
 * transformation matrix costs no objects. Inside a kept text or item, everything is kept.
 */
const KEPT_VALUES: ReadonlySet<string> = new Set(['id', 'Tags', 'Passengers'])
const KEPT_WHOLE: ReadonlySet<string> = new Set([...TEXT_KEYS, 'item'])

/**
 * Throws the `reader` refusal unless the raw text of a quoted string (between its quotes,
 * escapes as written) reads the same to a plugin's own reader as to the game's grammar: none of
 * `READER_MARKERS` (what a reader takes for an entity's start, in that order), then its brackets
 * `{}` `[]` balanced and nested within it (a reader that counts brackets blind to quotes sees
 * the same structure). `found`: the marker, or the first bracket that does not fit (an unclosed
 * one: the innermost).
 */
export function checkReaderSafe(text: string, start: number, end: number): void {
  // Most quoted strings (ids, numbers, textures) hold no bracket and no marker's first letter.
  let i = start
  while (i < end && !MAY_MATTER[text.charCodeAt(i)]) i++
  if (i === end) return
  const raw = text.slice(start, end)
  for (const marker of READER_MARKERS) {
    if (raw.includes(marker)) throw new UnsafeContent('reader', marker)
  }
  const open: string[] = []
  for (let at = 0; at < raw.length; at++) {
    const char = raw[at]!
    if (char === '{' || char === '[') open.push(char)
    else if (char === '}' || char === ']') {
      if (open.pop() !== (char === '}' ? '{' : '[')) throw new UnsafeContent('reader', char)
    }
  }
  if (open.length > 0) throw new UnsafeContent('reader', open[open.length - 1]!)
}

/** The first characters of brackets and of `READER_MARKERS`. */
const MAY_MATTER = new Uint8Array(0x10000)
for (const char of ['{', '[', '}', ']', ...READER_MARKERS.map((marker) => marker[0]!)]) {
  MAY_MATTER[char.charCodeAt(0)] = 1
}

/** A parsed SNBT value: what the checks need of it, no more. */
export type SnbtValue =
  /** A member's value is null unless its name is one of `KEPT_VALUES`. */
  | { kind: 'compound'; members: Array<[name: string, value: SnbtValue | null]> }
  | { kind: 'list'; items: SnbtValue[] }
  /** A quoted string or an unquoted word (a number, a boolean, an unquoted string). */
  | { kind: 'text'; value: string }
  /** `[B;...]`, `[I;...]`, `[L;...]`. */
  | { kind: 'array' }

/** Whether a UTF-16 unit may sit in an unquoted word (the game's `isAllowedInUnquotedString`). */
function isWordUnit(unit: number): boolean {
  return (
    (unit >= 0x30 && unit <= 0x39) || // 0-9
    (unit >= 0x41 && unit <= 0x5a) || // A-Z
    (unit >= 0x61 && unit <= 0x7a) || // a-z
    unit === 0x5f || // _
    unit === 0x2d || // -
    unit === 0x2e || // .
    unit === 0x2b // +
  )
}

/** A list of unquoted words, spaces allowed around them and the commas: `[0f, 1.5f,-2f]`. */
const WORD_LIST = /\[ *[0-9A-Za-z_\-.+]+(?: *, *[0-9A-Za-z_\-.+]+)* *\]/y

/** A parse of `text` from `start`; `end` is where the value ends. */
export interface SnbtParse {
  value: SnbtValue
  end: number
}

/** Parses one value starting at `start` (no leading space); the caller decides what may follow. */
export function parseSnbtValue(
  text: string,
  start: number,
  onPassenger: PassengerHook | null = null,
): SnbtParse {
  const parser = new SnbtParser(text, start, onPassenger)
  const value = parser.value(0)
  return { value, end: parser.position }
}

/**
 * Parses `text` as zero or more compounds separated by commas (spaces around them allowed), as
 * they sit inside a summon's `Passengers:[...]`, handing each to `each` as soon as it is parsed
 * (one compound's tree at a time, however many a model has). Throws `UnsafeContent` unless all
 * of it parses.
 */
export function forEachCompound(
  text: string,
  each: (compound: SnbtValue & { kind: 'compound' }) => void,
): void {
  const parser = new SnbtParser(text, 0, each)
  parser.spaces()
  if (parser.atEnd()) return
  for (;;) {
    each(parser.compound(0))
    parser.spaces()
    if (parser.atEnd()) return
    parser.expect(',')
    parser.spaces()
  }
}

/** Throws the `syntax` refusal for the character at `at` (or the end of the text). */
export function unexpectedAt(text: string, at: number): never {
  throw new UnsafeContent('syntax', characterAt(text, at))
}

/** The character at `at` as found in a refusal: one code point, or `end of text`. */
export function characterAt(text: string, at: number): string {
  return at >= text.length ? 'end of text' : String.fromCodePoint(text.codePointAt(at)!)
}

/**
 * Called with each compound of a `Passengers` list as soon as it closes (its own passengers
 * first), so that a passenger tree is checked part by part and never held whole; the list is
 * then kept empty. Null: `Passengers` kept as any other value.
 */
export type PassengerHook = (compound: SnbtValue & { kind: 'compound' }) => void

const EMPTY_LIST: SnbtValue = { kind: 'list', items: [] }

class SnbtParser {
  position: number
  private readonly text: string
  private readonly onPassenger: PassengerHook | null

  constructor(text: string, start: number, onPassenger: PassengerHook | null) {
    this.text = text
    this.position = start
    this.onPassenger = onPassenger
  }

  atEnd(): boolean {
    return this.position >= this.text.length
  }

  spaces(): void {
    while (this.text.charCodeAt(this.position) === 0x20) this.position++
  }

  expect(char: string): void {
    if (this.text[this.position] !== char) unexpectedAt(this.text, this.position)
    this.position++
  }

  value(depth: number, whole = false): SnbtValue {
    const char = this.text[this.position]
    if (char === '{') return this.compound(depth, whole)
    if (char === '[') return this.list(depth, whole)
    if (char === '"' || char === "'") return { kind: 'text', value: this.quoted() }
    return { kind: 'text', value: this.word() }
  }

  /** Parses a value to its end, building nothing. */
  skipValue(depth: number): void {
    const text = this.text
    const char = text[this.position]
    if (char === '"' || char === "'") {
      this.skipQuoted()
      return
    }
    if (char !== '{' && char !== '[') {
      this.skipWord()
      return
    }
    this.enter(depth)
    if (char === '[') {
      // A list of one or more words (a transformation, a rotation) is most of a frame's text:
      // one native match instead of a character at a time, the same grammar.
      WORD_LIST.lastIndex = this.position
      if (WORD_LIST.test(text)) {
        this.position = WORD_LIST.lastIndex
        return
      }
    }
    this.position++
    const isList = char === '['
    const close = isList ? ']' : '}'
    const typed = isList && text[this.position + 1] === ';' && 'BIL'.includes(text[this.position]!)
    if (typed) this.position += 2
    for (;;) {
      this.spaces()
      const next = text[this.position]
      if (next === close) break
      if (!isList && next === ',') {
        // An empty member (`,,`) is skipped, as the game's parser does.
        this.position++
        continue
      }
      if (!isList) {
        if (next === '"' || next === "'") this.skipQuoted()
        else this.skipWord()
        this.spaces()
        this.expect(':')
        this.spaces()
      }
      if (typed) this.skipWord()
      else this.skipValue(depth + 1)
      this.spaces()
      if (text[this.position] === close) break
      this.expect(',')
      // A list has no empty elements: a value must follow its comma.
      if (isList) {
        this.spaces()
        if (text[this.position] === close) unexpectedAt(text, this.position)
      }
    }
    this.position++
  }

  compound(depth: number, whole = false): SnbtValue & { kind: 'compound' } {
    this.enter(depth)
    this.expect('{')
    const members: Array<[string, SnbtValue | null]> = []
    for (;;) {
      this.spaces()
      const char = this.text[this.position]
      if (char === '}') break
      if (char !== ',') {
        const name = char === '"' || char === "'" ? this.quoted() : this.word()
        this.spaces()
        this.expect(':')
        this.spaces()
        if (!whole && name === 'Passengers' && this.onPassenger !== null) {
          members.push([name, this.passengers(depth + 1)])
        } else if (whole || KEPT_VALUES.has(name) || KEPT_WHOLE.has(name)) {
          members.push([name, this.value(depth + 1, whole || KEPT_WHOLE.has(name))])
        } else {
          this.skipValue(depth + 1)
          members.push([name, null])
        }
        this.spaces()
        if (this.text[this.position] === '}') break
      }
      // An empty member (`,,`) is skipped, as the game's parser does.
      this.expect(',')
    }
    this.position++
    return { kind: 'compound', members }
  }

  private list(depth: number, whole: boolean): SnbtValue {
    this.enter(depth)
    this.expect('[')
    const text = this.text
    const at = this.position
    if (text[at + 1] === ';' && (text[at] === 'B' || text[at] === 'I' || text[at] === 'L')) {
      this.position += 2
      this.items(depth, () => ({ kind: 'text', value: this.word() }))
      return { kind: 'array' }
    }
    return { kind: 'list', items: this.items(depth, () => this.value(depth + 1, whole)) }
  }

  /**
   * A passenger's `Passengers`: each compound handed to `onPassenger` as it closes. Anything
   * else than a list of compounds is the `key` refusal of `Passengers`.
   */
  private passengers(depth: number): SnbtValue {
    if (this.text[this.position] !== '[') throw new UnsafeContent('key', 'Passengers')
    this.enter(depth)
    this.position++
    this.items(depth, () => {
      if (this.text[this.position] !== '{') throw new UnsafeContent('key', 'Passengers')
      this.onPassenger!(this.compound(depth + 1))
      return EMPTY_LIST
    })
    return EMPTY_LIST
  }

  /** Items up to and including the closing `]`. */
  private items(depth: number, item: () => SnbtValue): SnbtValue[] {
    const items: SnbtValue[] = []
    this.spaces()
    if (this.text[this.position] === ']') {
      this.position++
      return items
    }
    for (;;) {
      this.spaces()
      items.push(item())
      this.spaces()
      if (this.text[this.position] === ']') {
        this.position++
        return items
      }
      this.expect(',')
    }
  }

  /** A quoted string's value, after `checkReaderSafe` of its raw text. */
  private quoted(): string {
    const text = this.text
    const quote = text.charCodeAt(this.position)
    const start = this.position + 1
    let value = ''
    let from = start
    for (let i = from; ; i++) {
      if (i >= text.length) unexpectedAt(text, i)
      const unit = text.charCodeAt(i)
      if (unit === quote) {
        this.position = i + 1
        checkReaderSafe(text, start, i)
        return value + text.slice(from, i)
      }
      if (unit === 0x5c) {
        // A backslash takes the next character as it is (`\"`, `\\`, `\'`).
        if (i + 1 >= text.length) unexpectedAt(text, i + 1)
        value += text.slice(from, i) + text[i + 1]
        i++
        from = i + 1
      }
    }
  }

  /** A quoted string to its end, after `checkReaderSafe` of its raw text; no value built. */
  private skipQuoted(): void {
    const text = this.text
    const quote = text.charCodeAt(this.position)
    const start = this.position + 1
    for (let i = start; i < text.length; i++) {
      const unit = text.charCodeAt(i)
      if (unit === quote) {
        this.position = i + 1
        checkReaderSafe(text, start, i)
        return
      }
      if (unit === 0x5c) i++
    }
    unexpectedAt(text, text.length)
  }

  private skipWord(): void {
    const start = this.position
    let i = start
    while (isWordUnit(this.text.charCodeAt(i))) i++
    if (i === start) unexpectedAt(this.text, start)
    this.position = i
  }

  private word(): string {
    const start = this.position
    let i = start
    while (isWordUnit(this.text.charCodeAt(i))) i++
    if (i === start) unexpectedAt(this.text, start)
    this.position = i
    return this.text.slice(start, i)
  }

  private enter(depth: number): void {
    if (depth >= MAX_SNBT_DEPTH) throw new UnsafeContent('depth', this.text[this.position]!)
  }
}
