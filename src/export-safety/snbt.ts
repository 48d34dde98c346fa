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
import { MAX_SNBT_DEPTH } from './vocabulary.js'

/**
 * The members of a compound whose values the checks read (an entity's id, tags and passengers);
 * every other value is parsed to its end and dropped, so that a transformation matrix or an
 * item's contents cost no objects.
 */
const KEPT_VALUES: ReadonlySet<string> = new Set(['id', 'Tags', 'Passengers'])

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
export function parseSnbtValue(text: string, start: number): SnbtParse {
  const parser = new SnbtParser(text, start)
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
  const parser = new SnbtParser(text, 0)
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

class SnbtParser {
  position: number
  private readonly text: string

  constructor(text: string, start: number) {
    this.text = text
    this.position = start
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

  value(depth: number): SnbtValue {
    const char = this.text[this.position]
    if (char === '{') return this.compound(depth)
    if (char === '[') return this.list(depth)
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

  compound(depth: number): SnbtValue & { kind: 'compound' } {
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
        if (KEPT_VALUES.has(name)) members.push([name, this.value(depth + 1)])
        else {
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

  private list(depth: number): SnbtValue {
    this.enter(depth)
    this.expect('[')
    const text = this.text
    const at = this.position
    if (text[at + 1] === ';' && (text[at] === 'B' || text[at] === 'I' || text[at] === 'L')) {
      this.position += 2
      this.items(depth, () => ({ kind: 'text', value: this.word() }))
      return { kind: 'array' }
    }
    return { kind: 'list', items: this.items(depth, () => this.value(depth + 1)) }
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

  private quoted(): string {
    const text = this.text
    const quote = text.charCodeAt(this.position)
    let value = ''
    let from = this.position + 1
    for (let i = from; ; i++) {
      if (i >= text.length) unexpectedAt(text, i)
      const unit = text.charCodeAt(i)
      if (unit === quote) {
        this.position = i + 1
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

  private skipQuoted(): void {
    const text = this.text
    const quote = text.charCodeAt(this.position)
    for (let i = this.position + 1; i < text.length; i++) {
      const unit = text.charCodeAt(i)
      if (unit === quote) {
        this.position = i + 1
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
