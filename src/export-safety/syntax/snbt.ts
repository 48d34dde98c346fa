/**
 * SNBT (the game's text form of entity data) as real exports write it. An entity's compound is
 * read into a small tree of what the checks need (its ids, tags and passengers); every other
 * member's value is checked against its type (`vocabulary.json`, `keyTypes`) while it is read,
 * building nothing. Two liberties of real exports are accepted: a space around `:` and `,`, and
 * empty members in a compound (`shadow:1b,,Tags:[...]`, which the game's own parser skips).
 * Nothing may follow the value: a string that closes its compound early and goes on
 * (`...}]} op @a`) is refused. In quoted strings only `\\` and a backslash before the string's
 * own quote are escapes: Minecraft 1.21.4 refuses the others and 1.21.5 and later decode them
 * (`\x73`, `\u0073`, `\n`, ...), so they would read differently by version.
 *
 * Written by hand rather than taken from a library: the SNBT parsers on the registry either fail
 * on the empty members of real exports or parse binary NBT only, and the Worker keeps `hono` as
 * its one runtime dependency.
 */
import {
  UnsafeContent,
  memberTypeOf,
  textFacts,
  wordOrStringMatches,
  type TextFacts,
  isBooleanWord,
  isNumberWord,
  isStringWord,
  pick,
  acceptsShape,
  type CompoundType,
  type KeyTypes,
  type Shape,
  type StringType,
  type ValueType,
  MAX_SNBT_DEPTH,
  MAX_TEXT_CHARS,
  PLACEHOLDER,
  REFUSED_TEXT_MEMBERS,
} from '../types/index.js'
import type { SnbtValue } from './snbt-value.js'
import { checkReaderMarkers, checkReaderSafe } from './reader-safety.js'
import { checkSnbtText, readQuotedText } from './text.js'

const ID = 'id'
const TAGS = 'Tags'
const PASSENGERS = 'Passengers'

/** Whether a UTF-16 unit may sit in an unquoted word (the game's `isAllowedInUnquotedString`). */
function isWordUnit(unit: number): boolean {
  return WORD_UNITS[unit] === 1
}

/** 0-9, A-Z, a-z, `_`, `-`, `.` and `+`, by unit (past the end of a text: NaN, none). */
const WORD_UNITS = new Uint8Array(0x80)
for (const [from, to] of ['09', 'AZ', 'az', '__', '--', '..', '++']) {
  WORD_UNITS.fill(1, from!.charCodeAt(0), to!.charCodeAt(0) + 1)
}

/**
 * Words by length, to find an unquoted name where it is written: looking a name up in a `Map`
 * needs a string made and hashed for each name read, which costs more than comparing it in place
 * (about a tenth of the time of text components nested to the depth limit), and a lookup of a
 * string never seen keeps it about in workerd (docs/performance.md, "Adversarial publishes").
 */
type WordsByLength<T> = Array<Array<readonly [string, T]> | undefined>

function wordsByLength<T>(words: Iterable<readonly [string, T]>): WordsByLength<T> {
  const byLength: WordsByLength<T> = []
  for (const word of words) (byLength[word[0].length] ??= []).push(word)
  return byLength
}

/** The entry of `words` whose word is written at `[start, start + length)` of `text`. */
function wordAt<T>(
  words: WordsByLength<T>,
  text: string,
  start: number,
  length: number,
): readonly [string, T] | undefined {
  const candidates = words[length]
  if (candidates === undefined) return undefined
  for (const entry of candidates) {
    const word = entry[0]
    let k = 0
    while (k < length && word.charCodeAt(k) === text.charCodeAt(start + k)) k++
    if (k === length) return entry
  }
  return undefined
}

const REFUSED_TEXT_WORDS = wordsByLength(REFUSED_TEXT_MEMBERS.map((name) => [name, name] as const))

/** The member names of each compound type read by `memberNameAt`, by length. */
const MEMBER_WORDS = new WeakMap<CompoundType, WordsByLength<ValueType>>()

/** The names `nameIn` finds where they are written, by what they are looked up in. */
const NAME_WORDS = new WeakMap<object, WordsByLength<string>>()

function namesOf(owner: object, names: () => Iterable<string>): WordsByLength<string> {
  let words = NAME_WORDS.get(owner)
  if (words === undefined) {
    words = wordsByLength([...names()].map((name) => [name, name] as const))
    NAME_WORDS.set(owner, words)
  }
  return words
}

/** An entity's keys: those with a type in the declared version, and those read as the tree. */
function entityKeys(keyTypes: KeyTypes): WordsByLength<string> {
  return namesOf(keyTypes, () => [...keyTypes.keys(), ID, TAGS, PASSENGERS])
}

/** A list of unquoted words, spaces allowed around them and the commas: `[0f, 1.5f,-2f]`. */
const WORD_LIST = /\[ *[0-9A-Za-z_\-.+]+(?: *, *[0-9A-Za-z_\-.+]+)* *\]/y

/** `numberListPattern`'s answers, by list type. */
const NUMBER_LISTS = new WeakMap<ValueType, RegExp | null>()

/**
 * For a list of decimal numbers (`of` a number type that is not `integer`: its words are checked
 * by their pattern alone, `isNumberWord`), a sticky pattern of the whole list, `[` to `]`, that
 * matches exactly what `typedList` reads item by item without a fault: spaces where `spaces`
 * skips them, each item a whole word (no word character after it) that the number pattern
 * matches, `length` items when given. Null for any other list.
 */
function numberListPattern(type: ValueType & { kind: 'list' }): RegExp | null {
  let pattern = NUMBER_LISTS.get(type)
  if (pattern !== undefined) return pattern
  pattern = null
  const of = type.of
  const source = of.kind === 'number' ? of.pattern.source : ''
  const wordChars = of.kind === 'number' && [...of.suffixes].every((suffix) => WORD.test(suffix))
  if (of.kind === 'number' && !of.integer && wordChars && isAnchoredWhole(source)) {
    const item = `(?:${source.slice(1, -1)})(?![0-9A-Za-z_\\-.+])`
    const items =
      type.length === null
        ? `(?:${item}(?: *, *${item})* *)?`
        : type.length === 0
          ? ''
          : `${item}(?: *, *${item}){${type.length - 1}} *`
    pattern = new RegExp(`\\[ *${items}\\]`, 'y')
  }
  NUMBER_LISTS.set(type, pattern)
  return pattern
}

/**
 * Whether the pattern `source` is `^...$` with no alternative outside its groups, so that
 * what stands between the anchors matches as one group (types.ts writes number patterns so).
 */
function isAnchoredWhole(source: string): boolean {
  if (!source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$')) return false
  let depth = 0
  let inClass = false
  for (let i = 1; i < source.length - 1; i++) {
    const char = source[i]
    if (char === '\\') i++
    else if (inClass) inClass = char !== ']'
    else if (char === '[') inClass = true
    else if (char === '(') depth++
    else if (char === ')') depth--
    else if (char === '|' && depth === 0) return false
  }
  return depth === 0 && !inClass
}

/** Characters that may stand in a word (`isWordUnit`), or none. */
const WORD = /^[0-9A-Za-z_\-.+]*$/

/** A parse of `text` from `start`; `end` is where the value ends. */
export interface SnbtParse {
  value: SnbtValue
  end: number
}

/** Parses one value starting at `start` (no leading space); the caller decides what may follow. */
export function parseSnbtValue(
  text: string,
  start: number,
  keyTypes: KeyTypes,
  onPassenger: PassengerHook | null = null,
): SnbtParse {
  const parser = new SnbtParser(text, start, keyTypes, onPassenger)
  const value = parser.value(0)
  return { value, end: parser.position }
}

/**
 * What a value read whole is built into, chosen by its reader: the check's `SnbtValue` tree
 * (`SNBT_TREE`), or a reader's own values built as the text is read (the try-it page's plain
 * values), with no tree between. `C`: a compound while its members are added.
 */
export interface SnbtBuilder<V, C = unknown> {
  /** A quoted string's value, or an unquoted word. */
  text(value: string, quoted: boolean): V
  list(items: V[]): V
  /** `[B;...]`, `[I;...]`, `[L;...]`: its words as written, in an array the builder may keep. */
  array(prefix: 'B' | 'I' | 'L', words: string[]): V
  compound(): C
  /** Called for each member in the text's order (a repeated name too). */
  member(compound: C, name: string, value: V): void
  closed(compound: C): V
}

type SnbtTreeCompound = SnbtValue & { kind: 'compound' }

/** Builds the check's tree: every member of every compound kept. */
export const SNBT_TREE: SnbtBuilder<SnbtValue, SnbtTreeCompound> = {
  text: (value, quoted) => ({ kind: 'text', value, quoted }),
  list: (items) => ({ kind: 'list', items }),
  array: (prefix, words) => ({
    kind: 'array',
    prefix,
    items: words.map((value) => ({ kind: 'text', value, quoted: false })),
  }),
  compound: () => ({ kind: 'compound', members: [] }),
  member: (compound, name, value) => void compound.members.push([name, value]),
  closed: (compound) => compound,
}

/** Parses one value kept whole starting at `start` (no leading space), built by `builder`. */
export function parseSnbtWhole<V, C>(
  text: string,
  start: number,
  builder: SnbtBuilder<V, C>,
  keyTypes: KeyTypes,
): { value: V; end: number } {
  const parser = new SnbtParser(text, start, keyTypes, null)
  const value = parser.whole(builder, 0)
  return { value, end: parser.position }
}

/**
 * Parses `text` as zero or more compounds separated by commas (spaces around them allowed), as
 * they sit inside a summon's `Passengers:[...]`, handing each to `each` as soon as it is parsed
 * (one compound's tree at a time, however many a model has), with where it stands in `text`,
 * `[start, end)`: the top-level ones, and those nested in their `Passengers` (`nested`), each
 * as it closes, so before the compound that holds it. Throws `UnsafeContent` unless all of it
 * parses.
 */
export function forEachCompound(
  text: string,
  keyTypes: KeyTypes,
  each: (
    compound: SnbtValue & { kind: 'compound' },
    start: number,
    end: number,
    nested: boolean,
  ) => void,
): void {
  const parser = new SnbtParser(text, 0, keyTypes, (compound, start, end) =>
    each(compound, start, end, true),
  )
  parser.spaces()
  if (parser.atEnd()) return
  for (;;) {
    const start = parser.position
    const compound = parser.compound(0)
    each(compound, start, parser.position, false)
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
 * first), and where it stands in the text, `[start, end)`, so that a passenger tree is checked
 * part by part and never held whole; the list is then kept empty. Null: `Passengers` kept as any
 * other value.
 */
export type PassengerHook = (
  compound: SnbtValue & { kind: 'compound' },
  start: number,
  end: number,
) => void

const EMPTY_LIST: SnbtValue = { kind: 'list', items: [] }

class SnbtParser {
  position: number
  private readonly text: string
  private readonly onPassenger: PassengerHook | null
  /** The types of an entity's keys, as the export's declared version reads them (`keyTypesOf`). */
  private readonly keyTypes: KeyTypes
  /**
   * Where the value being read sits in its entity's compound: names and list indexes, from
   * `pathBase` on (one array for every compound read, each compound's path after its holder's).
   */
  private readonly path: Array<string | number> = []
  private pathBase = 0
  /** The names of an entity's keys (`entityKeys`), found once for every member read. */
  private readonly entityWords: WordsByLength<string>
  /** Where the strings of a `Tags` list being read go. */
  private tags: string[] | null = null
  /** The next backslash at or after the last place asked for (-1: none to the end). */
  private backslash = -2

  constructor(text: string, start: number, keyTypes: KeyTypes, onPassenger: PassengerHook | null) {
    this.text = text
    this.position = start
    this.keyTypes = keyTypes
    this.onPassenger = onPassenger
    this.entityWords = entityKeys(keyTypes)
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
    if (char === '"' || char === "'") return { kind: 'text', value: this.quoted(), quoted: true }
    return { kind: 'text', value: this.word(), quoted: false }
  }

  /** A value with every member of every compound kept, built by `builder`. */
  whole<V, C>(builder: SnbtBuilder<V, C>, depth: number): V {
    const text = this.text
    const char = text[this.position]
    if (char === '"' || char === "'") return builder.text(this.quoted(), true)
    if (char !== '{' && char !== '[') return builder.text(this.word(), false)
    this.enter(depth)
    this.position++
    if (char === '[') {
      const at = this.position
      if (text[at + 1] === ';' && (text[at] === 'B' || text[at] === 'I' || text[at] === 'L')) {
        this.position += 2
        return builder.array(
          text[at] as 'B' | 'I' | 'L',
          this.items(() => this.word()),
        )
      }
      return builder.list(this.items(() => this.whole(builder, depth + 1)))
    }
    const compound = builder.compound()
    for (;;) {
      this.spaces()
      const next = text[this.position]
      if (next === '}') break
      if (next !== ',') {
        const name = next === '"' || next === "'" ? this.quoted() : this.word()
        this.spaces()
        this.expect(':')
        this.spaces()
        builder.member(compound, name, this.whole(builder, depth + 1))
        this.spaces()
        if (text[this.position] === '}') break
      }
      // An empty member (`,,`) is skipped, as the game's parser does.
      this.expect(',')
    }
    this.position++
    return builder.closed(compound)
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

  /**
   * An entity's compound (a passenger, a `data merge` or a summon's data): `id` kept whole,
   * `Passengers` handed to the passenger hook, a key of `keyTypes` checked against its type as
   * it is read (the tags of `Tags` kept), any other member read to its end and kept as null (a
   * `key` refusal later).
   */
  compound(depth: number): SnbtValue & { kind: 'compound' } {
    this.enter(depth)
    this.expect('{')
    const members: Array<[string, SnbtValue | null]> = []
    const outerBase = this.pathBase
    this.pathBase = this.path.length
    for (;;) {
      this.spaces()
      const char = this.text[this.position]
      if (char === '}') break
      if (char !== ',') {
        const name = char === '"' || char === "'" ? this.quoted() : this.nameIn(this.entityWords)
        this.spaces()
        this.expect(':')
        this.spaces()
        members.push([name, this.member(name, depth)])
        this.spaces()
        if (this.text[this.position] === '}') break
      }
      // An empty member (`,,`) is skipped, as the game's parser does.
      this.expect(',')
    }
    this.pathBase = outerBase
    this.position++
    return { kind: 'compound', members }
  }

  /** The value of the member `name` of a compound (`compound` says how it is read). */
  private member(name: string, depth: number): SnbtValue | null {
    if (name === ID) return this.whole(SNBT_TREE, depth + 1)
    if (name === PASSENGERS && this.onPassenger !== null) return this.passengers(depth + 1)
    const type = this.keyTypes.get(name)
    if (type === undefined) {
      this.skipValue(depth + 1)
      return null
    }
    this.path.push(name)
    if (name !== TAGS) {
      this.typed(type, depth + 1)
      this.path.pop()
      return null
    }
    const tags: string[] = []
    this.tags = tags
    this.typed(type, depth + 1)
    this.tags = null
    this.path.pop()
    return { kind: 'list', items: tags.map((tag) => ({ kind: 'text', value: tag, quoted: true })) }
  }

  /**
   * The first backslash at or after `from`, searched once for all the strings before it: many
   * short strings in one long text must not each search to its end.
   */
  private backslashFrom(from: number): number {
    if (this.backslash !== -1 && this.backslash < from) {
      this.backslash = this.text.indexOf('\\', from)
    }
    return this.backslash
  }

  /** The shape of the value at the current position (its first characters). */
  private shape(): Shape {
    const text = this.text
    const char = text.charCodeAt(this.position)
    if (char === 0x7b) return 'compound'
    if (char === 0x5b) {
      const letter = text[this.position + 1]
      const typed =
        text[this.position + 2] === ';' && (letter === 'B' || letter === 'I' || letter === 'L')
      return typed ? 'array' : 'list'
    }
    return char === 0x22 || char === 0x27 ? 'quoted' : 'word'
  }

  /** The `type` refusal at the current path (`transformation[3]`, `brightness.sky`). */
  private typeFault(): never {
    throw new UnsafeContent('type', this.pathText())
  }

  private pathText(): string {
    let text = ''
    for (let i = this.pathBase; i < this.path.length; i++) {
      const segment = this.path[i]!
      text += typeof segment === 'number' ? `[${segment}]` : text === '' ? segment : `.${segment}`
    }
    return text
  }

  /**
   * Reads one value against `type`, building nothing: the alternative is picked by the value's
   * shape when its first character is met (none reads it: `type`), then the value is read and
   * checked as it goes; the first fault met is thrown.
   */
  private typed(type: ValueType, depth: number): void {
    const shape = this.shape()
    const chosen = pick(type, shape)
    if (chosen === null) this.typeFault()
    switch (chosen.kind) {
      case 'compound':
        return this.typedCompound(chosen, depth)
      case 'list':
      case 'array':
        return this.typedList(chosen, depth)
      case 'string':
        return this.typedString(chosen, shape)
      case 'enum': {
        const value = shape === 'quoted' ? this.quoted() : this.word()
        if (shape === 'quoted') this.placeholderOnly(value, false)
        if (!chosen.values.has(value)) this.typeFault()
        return
      }
      case 'number':
        if (!isNumberWord(chosen, this.word())) this.typeFault()
        return
      case 'boolean':
        if (!isBooleanWord(this.word())) this.typeFault()
        return
      case 'text':
        return this.typedText(chosen.of, shape, depth)
      case 'oneOf':
        // `pick` never answers a `oneOf`.
        return this.typeFault()
    }
  }

  private typedCompound(type: CompoundType, depth: number): void {
    this.enter(depth)
    this.expect('{')
    const text = this.text
    for (;;) {
      this.spaces()
      const char = text[this.position]
      if (char === '}') break
      if (char !== ',') {
        const quoted = char === '"' || char === "'"
        const name = quoted
          ? this.quoted()
          : type.namespace === null
            ? this.nameIn(namesOf(type, () => type.members.keys()))
            : this.word()
        this.path.push(name)
        if (quoted) this.placeholderOnly(name, false)
        const memberType = memberTypeOf(type, name)
        if (memberType === null) {
          if (type.unknown === 'component') throw new UnsafeContent('component', name)
          this.typeFault()
        }
        this.spaces()
        this.expect(':')
        this.spaces()
        this.typed(memberType, depth + 1)
        this.path.pop()
        this.spaces()
        if (text[this.position] === '}') break
      }
      this.expect(',')
    }
    this.position++
  }

  /** A list (or a typed array) of `type.of`, of `type.length` items when given. */
  private typedList(type: ValueType & { kind: 'list' | 'array' }, depth: number): void {
    this.enter(depth)
    const text = this.text
    if (type.kind === 'list') {
      // A list of decimal numbers (a transformation's sixteen) in one native match when it is
      // well formed; anything else is read item by item below, which names the fault.
      const whole = numberListPattern(type)
      if (whole !== null) {
        whole.lastIndex = this.position
        if (whole.test(text)) {
          this.position = whole.lastIndex
          return
        }
      }
    }
    this.position++
    if (type.kind === 'array') {
      if (text[this.position] !== type.prefix) this.typeFault()
      this.position += 2
    }
    // A list of strings (a part's `Tags`) may hold thousands, of one type: its reading by shape
    // is found once per shape met, not dispatched again for each item.
    const strings = type.of.kind === 'string' ? type.of : null
    let lastShape: Shape | null = null
    let accepted = false
    let count = 0
    this.spaces()
    if (text.charCodeAt(this.position) !== 0x5d) {
      // The item's index is the path's last segment while it is read.
      const path = this.path
      const index = path.push(count) - 1
      for (;;) {
        this.spaces()
        path[index] = count
        if (type.kind === 'array' && this.shape() !== 'word') this.typeFault()
        if (strings === null) this.typed(type.of, depth + 1)
        else {
          const shape = this.shape()
          if (shape !== lastShape) {
            lastShape = shape
            accepted = acceptsShape(strings, shape)
          }
          if (!accepted) this.typeFault()
          this.typedString(strings, shape)
        }
        count++
        this.spaces()
        if (text.charCodeAt(this.position) === 0x5d) break
        this.expect(',')
      }
      path.pop()
    }
    this.position++
    if (type.length !== null && count !== type.length) this.typeFault()
  }

  /** A string: quoted, or (`shape` `word`) an unquoted word its type reads as one. */
  private typedString(type: StringType, shape: Shape): void {
    const quoted = shape === 'quoted'
    const value = quoted ? this.quoted() : this.word()
    if (!quoted && !isStringWord(type, value)) this.typeFault()
    this.placeholderOnly(value, type.placeholder)
    if (type.placeholder && this.tags !== null) this.tags.push(value)
    if (type.pattern !== null && !type.pattern.test(value)) this.typeFault()
  }

  /**
   * Throws the `placeholder` refusal when `value` holds the tag placeholder anywhere but where
   * the editor writes it: with `atStart`, once, at its start, followed by `_` or its end.
   */
  private placeholderOnly(value: string, atStart: boolean): void {
    const at = value.indexOf(PLACEHOLDER)
    if (at < 0) return
    const after = value[PLACEHOLDER.length]
    if (
      atStart &&
      at === 0 &&
      (after === undefined || after === '_') &&
      value.indexOf(PLACEHOLDER, 1) < 0
    ) {
      return
    }
    throw new UnsafeContent('placeholder', this.pathText())
  }

  /**
   * Text written as SNBT, read to its end against `type` (null: a type already failed above,
   * only `facts` are gathered), building nothing: whether it matches. The grammar is `value`'s
   * (faults thrown as met); the type is `oneOf`'s pick by shape, as `typed` reads, but a value
   * that does not match is read on, since a world-reading kind further on is named first.
   */
  private textValue(type: ValueType | null, depth: number, facts: TextFacts): boolean {
    const text = this.text
    const shape = this.shape()
    let chosen = type === null ? null : pick(type, shape)
    while (chosen?.kind === 'text') chosen = pick(chosen.of, shape)
    if (shape === 'quoted' || shape === 'word') {
      const value = shape === 'quoted' ? this.quoted() : this.word()
      if (shape === 'quoted' && value.includes(PLACEHOLDER)) facts.placeholder = true
      return chosen !== null && wordOrStringMatches(chosen, value)
    }
    if (shape === 'array') {
      this.whole(SNBT_TREE, depth)
      return false
    }
    this.enter(depth)
    this.position++
    let matches = chosen !== null
    if (shape === 'list') {
      const of = chosen?.kind === 'list' ? chosen.of : null
      let count = 0
      this.spaces()
      if (text.charCodeAt(this.position) !== 0x5d) {
        for (;;) {
          this.spaces()
          matches = this.textValue(matches ? of : null, depth + 1, facts) && matches
          count++
          this.spaces()
          if (text.charCodeAt(this.position) === 0x5d) break
          this.expect(',')
        }
      }
      this.position++
      if (chosen?.kind === 'list' && chosen.length !== null && count !== chosen.length) {
        return false
      }
      return matches
    }
    for (;;) {
      this.spaces()
      const char = text.charCodeAt(this.position)
      if (char === 0x7d) break
      if (char !== 0x2c) {
        const compound = matches && chosen?.kind === 'compound' ? chosen : null
        let memberType: ValueType | null = null
        if (char === 0x22 || char === 0x27) {
          const name = this.quoted()
          if (REFUSED_TEXT_MEMBERS.includes(name)) facts.kinds.add(name)
          if (name.includes(PLACEHOLDER)) facts.placeholder = true
          if (compound !== null) memberType = memberTypeOf(compound, name)
        } else memberType = this.memberNameAt(compound, facts)
        this.spaces()
        this.expect(':')
        this.spaces()
        if (memberType === null) matches = false
        matches = this.textValue(matches ? memberType : null, depth + 1, facts) && matches
        this.spaces()
        if (text.charCodeAt(this.position) === 0x7d) break
      }
      // An empty member (`,,`) is skipped, as the game's parser does.
      this.expect(',')
    }
    this.position++
    return matches
  }

  /** Text: a quoted string of JSON text, or text written as SNBT (`text.ts`). */
  private typedText(type: ValueType, shape: Shape, depth: number): void {
    const path = () => this.pathText()
    if (shape === 'quoted') {
      const start = this.position + 1
      const value = this.quoted(false)
      const end = this.position - 1
      if (value.length > MAX_TEXT_CHARS) throw new UnsafeContent('length', path(), 'text')
      const reading = readQuotedText(value, type, path)
      // JSON text read whole with no bracket in its strings balances its brackets, as written
      // when no escape shortened it: a bracket count blind to quotes need not run again.
      if (reading.balanced && end - start === value.length)
        checkReaderMarkers(this.text, start, end)
      else checkReaderSafe(this.text, start, end)
      this.placeholderOnly(value, false)
      if (reading.refusal !== null) throw reading.refusal
      return
    }
    const start = this.position
    const facts = textFacts()
    const matches = this.textValue(type, depth, facts)
    if (this.position - start > MAX_TEXT_CHARS) throw new UnsafeContent('length', path(), 'text')
    checkSnbtText(facts, matches, path)
  }

  /** A list as `value` reads it: its compounds are entities' (`compound`), a typed array whole. */
  private list(depth: number): SnbtValue {
    const at = this.position + 1
    const text = this.text
    if (text[at + 1] === ';' && (text[at] === 'B' || text[at] === 'I' || text[at] === 'L')) {
      return this.whole(SNBT_TREE, depth)
    }
    this.enter(depth)
    this.position++
    return { kind: 'list', items: this.items(() => this.value(depth + 1)) }
  }

  /**
   * A passenger's `Passengers`: each compound handed to `onPassenger` as it closes. Anything
   * else than a list of compounds is the `key` refusal of `Passengers`.
   */
  private passengers(depth: number): SnbtValue {
    if (this.text[this.position] !== '[') throw new UnsafeContent('key', 'Passengers')
    this.enter(depth)
    this.position++
    // Each compound let go once handed over: a list of many parts is never held.
    this.forEachItem(() => {
      if (this.text[this.position] !== '{') throw new UnsafeContent('key', 'Passengers')
      const start = this.position
      const compound = this.compound(depth + 1)
      this.onPassenger!(compound, start, this.position)
    })
    return EMPTY_LIST
  }

  /** Items up to and including the closing `]`. */
  private items<T>(item: () => T): T[] {
    const items: T[] = []
    this.forEachItem(() => void items.push(item()))
    return items
  }

  /** Reads items up to and including the closing `]`, each by `item`. */
  private forEachItem(item: () => void): void {
    this.spaces()
    if (this.text[this.position] === ']') {
      this.position++
      return
    }
    for (;;) {
      this.spaces()
      item()
      this.spaces()
      if (this.text[this.position] === ']') {
        this.position++
        return
      }
      this.expect(',')
    }
  }

  /** A quoted string's value, after `checkReaderSafe` of its raw text (unless `readerSafe` is false). */
  private quoted(readerSafe = true): string {
    const text = this.text
    const quote = text.charCodeAt(this.position)
    const quoteChar = quote === 0x22 ? '"' : "'"
    const start = this.position + 1
    let value = ''
    let from = start
    // Native searches for the closing quote and the next backslash: most strings have none.
    let backslash = this.backslashFrom(start)
    for (;;) {
      const end = text.indexOf(quoteChar, from)
      if (backslash < 0 || (end >= 0 && backslash > end)) {
        if (end < 0) unexpectedAt(text, text.length)
        this.position = end + 1
        if (readerSafe) checkReaderSafe(text, start, end)
        return value + text.slice(from, end)
      }
      checkEscape(text, backslash, quote)
      value += text.slice(from, backslash) + text[backslash + 1]
      from = backslash + 2
      backslash = this.backslashFrom(from)
    }
  }

  /** A quoted string to its end, after `checkReaderSafe` of its raw text; no value built. */
  private skipQuoted(): void {
    const text = this.text
    const quote = text.charCodeAt(this.position)
    const quoteChar = quote === 0x22 ? '"' : "'"
    const start = this.position + 1
    let from = start
    let backslash = this.backslashFrom(start)
    for (;;) {
      const end = text.indexOf(quoteChar, from)
      if (backslash < 0 || (end >= 0 && backslash > end)) {
        if (end < 0) unexpectedAt(text, text.length)
        this.position = end + 1
        checkReaderSafe(text, start, end)
        return
      }
      checkEscape(text, backslash, quote)
      from = backslash + 2
      backslash = this.backslashFrom(from)
    }
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

  /**
   * An unquoted name: the string of `names` it is, found where it is written (no string made,
   * and a lookup of it finds that very key), else a new string of it.
   */
  private nameIn(names: WordsByLength<string>): string {
    const start = this.position
    this.skipWord()
    const found = wordAt(names, this.text, start, this.position - start)
    return found?.[1] ?? this.text.slice(start, this.position)
  }

  /**
   * An unquoted member name of a text, read where it is written: its type in `compound` (null
   * for none), as `memberTypeOf` gives it; a refused text member is added to `facts`. A word
   * holds no placeholder (`[` is none of its units) and no namespace's `:`.
   */
  private memberNameAt(compound: CompoundType | null, facts: TextFacts): ValueType | null {
    const start = this.position
    this.skipWord()
    const length = this.position - start
    const refused = wordAt(REFUSED_TEXT_WORDS, this.text, start, length)
    if (refused !== undefined) facts.kinds.add(refused[1])
    if (compound === null) return null
    if (compound.members.size === 0 || compound.namespace !== null) {
      return memberTypeOf(compound, this.text.slice(start, this.position))
    }
    let words = MEMBER_WORDS.get(compound)
    if (words === undefined) {
      words = wordsByLength(compound.members)
      MEMBER_WORDS.set(compound, words)
    }
    return wordAt(words, this.text, start, length)?.[1] ?? compound.others
  }

  private enter(depth: number): void {
    if (depth >= MAX_SNBT_DEPTH) throw new UnsafeContent('depth', this.text[this.position]!)
  }
}

/**
 * Throws unless the backslash at `at` of a string quoted with `quote` escapes a backslash or that
 * quote: the only escapes Minecraft 1.21.4 and 1.21.5+ read alike (`escape`, found the backslash
 * and the character after it).
 */
function checkEscape(text: string, at: number, quote: number): void {
  if (at + 1 >= text.length) unexpectedAt(text, at + 1)
  const next = text.charCodeAt(at + 1)
  if (next === 0x5c || next === quote) return
  throw new UnsafeContent('escape', `\\${String.fromCodePoint(text.codePointAt(at + 1)!)}`)
}
