/**
 * JSON text read as `JSON.parse` reads it, against a type, without building it: one pass that
 * validates the grammar (RFC 8259, as strict as `JSON.parse`), gathers the world-reading kinds
 * and the nesting too deep, and answers whether the text is of its type, as `jsonTextMatches`
 * does on `JSON.parse`'s output. A text that repeats a member name in one object is handed back
 * (`REPEATED`): `JSON.parse` keeps one value of it, and that reading alone decides.
 */
import {
  jsonNumberMatches,
  memberTypeOf,
  wordOrStringMatches,
  type CompoundType,
  type TextFacts,
  pick,
  type Shape,
  type ValueType,
  MAX_SNBT_DEPTH,
  REFUSED_TEXT_MEMBERS,
} from '../types/index.js'

/** Thrown when the text is not JSON. */
export const NOT_JSON = Symbol('not JSON')
/** Thrown when an object repeats a member name. */
export const REPEATED = Symbol('a repeated member')

/** Names an object may have before they are kept in a set rather than compared one by one. */
const FEW_NAMES = 16
/**
 * Member names a text remembers what it looked up for: a text repeats a few names (`text`,
 * `extra`) at every level, and comparing a short name is cheaper than a map's lookup of a string
 * never seen before. Bounded, so a text of many names compares at most this many per member.
 */
const KNOWN_NAMES = 8

/** A member name, whether it is refused in text, and its type in the compound last read. */
interface KnownName {
  readonly name: string
  readonly refused: boolean
  compound: CompoundType | null
  member: ValueType | null
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const HEX = /[0-9A-Fa-f]{4}/y

/** What `readJsonText` also tells of the strings it read. */
export interface JsonTextStrings {
  /** Whether a string or a member name holds a bracket (`{}[]`, as written). */
  bracket: boolean
}

/**
 * Whether the JSON text `text` is of `type`, `facts` gathered on the way (and `strings`, when
 * given). Throws `NOT_JSON` or `REPEATED` (symbols, not errors).
 */
export function readJsonText(
  text: string,
  type: ValueType,
  facts: TextFacts,
  strings: JsonTextStrings | null = null,
): boolean {
  const reader = new JsonTextReader(text, facts, strings)
  reader.spaces()
  const matches = reader.value(type, 0)
  reader.spaces()
  if (reader.position !== text.length) throw NOT_JSON
  return matches
}

/** The type a value of `shape` is read against: `oneOf` picked, `text` seen through. */
function chosenFor(type: ValueType | null, shape: Shape): ValueType | null {
  let chosen = type === null ? null : pick(type, shape)
  while (chosen?.kind === 'text') chosen = pick(chosen.of, shape)
  return chosen
}

class JsonTextReader {
  position = 0
  private readonly text: string
  private readonly facts: TextFacts
  private readonly strings: JsonTextStrings | null
  /** The member names of the objects being read, outermost first (`object`), `top` of them. */
  private readonly names: string[] = []
  private top = 0
  private readonly known: KnownName[] = []

  constructor(text: string, facts: TextFacts, strings: JsonTextStrings | null) {
    this.text = text
    this.facts = facts
    this.strings = strings
  }

  spaces(): void {
    const text = this.text
    for (;;) {
      const unit = text.charCodeAt(this.position)
      if (unit !== 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d) return
      this.position++
    }
  }

  /** One value against `type` (null: only read it); `depth` the containers it is inside. */
  value(type: ValueType | null, depth: number): boolean {
    const text = this.text
    const unit = text.charCodeAt(this.position)
    if (unit === 0x7b || unit === 0x5b) {
      if (depth >= MAX_SNBT_DEPTH) {
        if (unit === 0x5b) this.facts.tooDeepArray = true
        else this.facts.tooDeepObject = true
        // Nothing in it counts: read it as JSON only, without recursion however deep it goes.
        this.skip()
        return false
      }
      return unit === 0x7b ? this.object(type, depth) : this.array(type, depth)
    }
    return this.scalar(type)
  }

  /** A string, a literal or a number against `type` (null: only read it). */
  private scalar(type: ValueType | null): boolean {
    const text = this.text
    const unit = text.charCodeAt(this.position)
    if (unit === 0x22) {
      const value = this.string()
      const chosen = chosenFor(type, 'quoted')
      return chosen !== null && wordOrStringMatches(chosen, value)
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, this.position)) {
        this.position += literal.length
        const chosen = literal === 'null' ? null : chosenFor(type, 'word')
        return chosen !== null && wordOrStringMatches(chosen, literal)
      }
    }
    NUMBER.lastIndex = this.position
    if (!NUMBER.test(text)) throw NOT_JSON
    const raw = text.slice(this.position, NUMBER.lastIndex)
    this.position = NUMBER.lastIndex
    return type !== null && jsonNumberMatches(type, Number(raw))
  }

  private object(type: ValueType | null, depth: number): boolean {
    const text = this.text
    const chosen = chosenFor(type, 'compound')
    let matches = chosen !== null
    // This object's names: on the shared stack while they are few, in a set past that.
    const names = this.names
    const base = this.top
    let many: Set<string> | null = null
    this.position++
    this.spaces()
    if (text.charCodeAt(this.position) === 0x7d) {
      this.position++
      return matches
    }
    for (;;) {
      if (text.charCodeAt(this.position) !== 0x22) throw NOT_JSON
      const name = this.string()
      if (many !== null) {
        if (many.has(name)) throw REPEATED
        many.add(name)
      } else {
        for (let at = base; at < this.top; at++) if (names[at] === name) throw REPEATED
        names[this.top++] = name
        if (this.top - base > FEW_NAMES) many = new Set(names.slice(base, this.top))
      }
      const known = this.knownName(name)
      if (known.refused) this.facts.kinds.add(name)
      this.spaces()
      if (text.charCodeAt(this.position) !== 0x3a) throw NOT_JSON
      this.position++
      this.spaces()
      const memberType =
        matches && chosen?.kind === 'compound' ? this.memberType(known, chosen) : null
      if (memberType === null) matches = false
      matches = this.value(matches ? memberType : null, depth + 1) && matches
      this.spaces()
      const next = text.charCodeAt(this.position++)
      if (next === 0x7d) {
        this.top = base
        return matches
      }
      if (next !== 0x2c) throw NOT_JSON
      this.spaces()
    }
  }

  /** `name`'s entry: one remembered, else a new one (remembered while there is room). */
  private knownName(name: string): KnownName {
    const known = this.known
    for (let at = 0; at < known.length; at++) if (known[at]!.name === name) return known[at]!
    const entry: KnownName = {
      name,
      refused: REFUSED_TEXT_MEMBERS.includes(name),
      compound: null,
      member: null,
    }
    if (known.length < KNOWN_NAMES) known.push(entry)
    return entry
  }

  /** The type of `known`'s member in `compound`, looked up once while `compound` stays. */
  private memberType(known: KnownName, compound: CompoundType): ValueType | null {
    if (known.compound !== compound) {
      known.member = memberTypeOf(compound, known.name)
      known.compound = compound
    }
    return known.member
  }

  private array(type: ValueType | null, depth: number): boolean {
    const text = this.text
    const chosen = chosenFor(type, 'list')
    let matches = chosen !== null
    const of = chosen?.kind === 'list' ? chosen.of : null
    let count = 0
    this.position++
    this.spaces()
    if (text.charCodeAt(this.position) === 0x5d) {
      this.position++
    } else {
      for (;;) {
        matches = this.value(matches ? of : null, depth + 1) && matches
        count++
        this.spaces()
        const next = text.charCodeAt(this.position++)
        if (next === 0x5d) break
        if (next !== 0x2c) throw NOT_JSON
        this.spaces()
      }
    }
    if (chosen?.kind === 'list' && chosen.length !== null && count !== chosen.length) return false
    return matches
  }

  /**
   * The container at the current position read to its end as JSON, with a stack of its own
   * rather than recursion: only its grammar counts.
   */
  private skip(): void {
    const text = this.text
    const open: number[] = []
    for (;;) {
      // At a value.
      const unit = text.charCodeAt(this.position)
      if (unit === 0x7b || unit === 0x5b) {
        this.position++
        this.spaces()
        if (text.charCodeAt(this.position) === (unit === 0x7b ? 0x7d : 0x5d)) {
          this.position++
        } else {
          open.push(unit)
          if (unit === 0x7b) this.memberName()
          continue
        }
      } else {
        this.scalar(null)
      }
      // After a value: close what it ends, or go on to the next value.
      for (;;) {
        if (open.length === 0) return
        this.spaces()
        const next = text.charCodeAt(this.position++)
        const container = open[open.length - 1]!
        if (next === 0x2c) {
          this.spaces()
          if (container === 0x7b) this.memberName()
          break
        }
        if (next !== (container === 0x7b ? 0x7d : 0x5d)) throw NOT_JSON
        open.pop()
      }
    }
  }

  /** A member's name and its colon, spaces around. */
  private memberName(): void {
    if (this.text.charCodeAt(this.position) !== 0x22) throw NOT_JSON
    this.string()
    this.spaces()
    if (this.text.charCodeAt(this.position) !== 0x3a) throw NOT_JSON
    this.position++
    this.spaces()
  }

  /** A string at the current `"`, its value decoded as `JSON.parse` decodes it. */
  private string(): string {
    const text = this.text
    const start = this.position
    let escaped = false
    for (let at = start + 1; at < text.length; at++) {
      const unit = text.charCodeAt(at)
      if (unit === 0x22) {
        this.position = at + 1
        return escaped
          ? (JSON.parse(text.slice(start, at + 1)) as string)
          : text.slice(start + 1, at)
      }
      if (unit < 0x20) throw NOT_JSON
      if (
        (unit === 0x5b || unit === 0x5d || unit === 0x7b || unit === 0x7d) &&
        this.strings !== null
      ) {
        this.strings.bracket = true
      }
      if (unit === 0x5c) {
        escaped = true
        const next = text.charCodeAt(++at)
        if (next === 0x75) {
          HEX.lastIndex = at + 1
          if (!HEX.test(text)) throw NOT_JSON
          at += 4
        } else if (!ESCAPES.has(next)) throw NOT_JSON
      }
    }
    throw NOT_JSON
  }
}

/** The characters a JSON escape may name after its backslash (`u` aside). */
const ESCAPES: ReadonlySet<number> = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74])
