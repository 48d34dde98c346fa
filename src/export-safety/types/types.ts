/**
 * The value types of `vocabulary.json` (`types`, `keyTypes`), compiled once into objects the
 * check applies while it reads SNBT (`snbt.ts`) and to JSON text (`typed-tree.ts`). The format
 * is data so that the Java client applies the same file: docs/export-safety.md, "The
 * vocabulary file", says what each kind accepts.
 */
import data from './vocabulary.json' with { type: 'json' }

/** A type of `vocabulary.json`, its references resolved. */
export type ValueType =
  | NumberType
  | { kind: 'boolean' }
  | StringType
  | { kind: 'enum'; values: ReadonlySet<string> }
  | { kind: 'list'; of: ValueType; length: number | null }
  | { kind: 'array'; prefix: string; of: ValueType; length: number | null }
  | CompoundType
  | { kind: 'oneOf'; of: ValueType[] }
  | { kind: 'text'; of: ValueType }
  | { kind: 'none' }

export interface NumberType {
  kind: 'number'
  integer: boolean
  suffixes: ReadonlySet<string>
  min: number | null
  max: number | null
  /** The whole word: sign, digits, fraction (and exponent) when not `integer`, then the suffix. */
  pattern: RegExp
}

export interface StringType {
  kind: 'string'
  /** What the decoded value must match whole, or null. */
  pattern: RegExp | null
  /** Whether the placeholder may begin the string (the items of `Tags`). */
  placeholder: boolean
  /**
   * What an unquoted word must match whole to be read as this string (never `true` nor
   * `false` in any case, which SNBT reads as bytes), or null: only a quoted string is.
   */
  words: RegExp | null
}

export interface CompoundType {
  kind: 'compound'
  members: ReadonlyMap<string, ValueType>
  others: ValueType | null
  /** Prefixed to a member name that holds no `:` before it is looked up (`minecraft:`). */
  namespace: string | null
  /** The reason for a member not listed: `component` names it, `type` gives its path. */
  unknown: 'type' | 'component'
}

/** The shape of an SNBT (or JSON) value, which picks a `oneOf` alternative. */
export type Shape = 'compound' | 'list' | 'array' | 'quoted' | 'word'

/** A type as `vocabulary.json` writes it: a name of `types`, or a definition. */
type RawType = string | RawDefinition

interface RawDefinition {
  kind: string
  of?: RawType | RawType[]
  length?: number
  integer?: boolean
  suffixes?: string[]
  min?: number
  max?: number
  pattern?: string
  placeholder?: string
  words?: string
  values?: string[]
  prefix?: string
  members?: Record<string, RawType>
  others?: RawType
  namespace?: string
  unknown?: string
}

const RAW_TYPES = data.types as unknown as Record<string, RawType>

/** The integer range a suffix allows: `b` a byte, `s` a short, none an int. */
export const SUFFIX_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  '': [-2147483648, 2147483647],
  b: [-128, 127],
  B: [-128, 127],
  s: [-32768, 32767],
  S: [-32768, 32767],
}

/**
 * The types of `vocabulary.json` as one game version reads them: `overrides` replaces types by
 * name (an era's `types`, `versions.ts`), every other name is the file's own. Each set compiles
 * its types once, so a recursive type is one object referring to itself.
 */
export class TypeSet {
  private readonly overrides: Readonly<Record<string, RawType>>
  private readonly compiled = new Map<string, ValueType>()
  /** The type of each entity key (`keyTypes`): one per name, the same in every entity. */
  readonly keyTypes: ReadonlyMap<string, ValueType>

  constructor(overrides: Readonly<Record<string, RawType>>) {
    this.overrides = overrides
    this.keyTypes = new Map(
      Object.entries(data.keyTypes as Record<string, RawType>).map(([key, type]) => [
        key,
        this.typeOf(type),
      ]),
    )
  }

  /** The type a name of `types` (or an inline type) stands for. */
  typeOf(raw: RawType): ValueType {
    if (typeof raw !== 'string') return this.compile(raw)
    const known = this.compiled.get(raw)
    if (known !== undefined) return known
    const definition = Object.hasOwn(this.overrides, raw) ? this.overrides[raw] : RAW_TYPES[raw]
    if (definition === undefined) throw new Error(`vocabulary.json: no type "${raw}"`)
    // A placeholder object first, filled in place, so that recursive types (text) resolve.
    const type = {} as ValueType
    this.compiled.set(raw, type)
    Object.assign(
      type,
      typeof definition === 'string' ? this.typeOf(definition) : this.compile(definition),
    )
    return type
  }

  private compile(raw: RawDefinition): ValueType {
    const of = () => this.typeOf(raw.of as RawType)
    const length = typeof raw.length === 'number' ? raw.length : null
    switch (raw.kind) {
      case 'number':
        return numberType(raw)
      case 'boolean':
        return { kind: 'boolean' }
      case 'string':
        return {
          kind: 'string',
          pattern: typeof raw.pattern === 'string' ? new RegExp(`^(?:${raw.pattern})$`) : null,
          placeholder: raw.placeholder === 'prefix',
          words: typeof raw.words === 'string' ? new RegExp(`^(?:${raw.words})$`) : null,
        }
      case 'enum':
        return { kind: 'enum', values: new Set(raw.values as string[]) }
      case 'list':
        return { kind: 'list', of: of(), length }
      case 'array':
        return { kind: 'array', prefix: raw.prefix as string, of: of(), length }
      case 'compound': {
        const members = new Map<string, ValueType>()
        for (const [name, type] of Object.entries((raw.members ?? {}) as Record<string, RawType>)) {
          members.set(name, this.typeOf(type))
        }
        return {
          kind: 'compound',
          members,
          others: raw.others === undefined ? null : this.typeOf(raw.others as RawType),
          namespace: typeof raw.namespace === 'string' ? raw.namespace : null,
          unknown: raw.unknown === 'component' ? 'component' : 'type',
        }
      }
      case 'oneOf':
        return { kind: 'oneOf', of: (raw.of as RawType[]).map((type) => this.typeOf(type)) }
      case 'text':
        return { kind: 'text', of: of() }
      case 'none':
        return { kind: 'none' }
      default:
        throw new Error(`vocabulary.json: no type kind "${raw.kind}"`)
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function numberType(raw: RawDefinition): NumberType {
  const suffixes = raw.suffixes as string[]
  const integer = raw.integer === true
  const alternatives = suffixes.map(escapeRegExp).join('|')
  // An exponent only before a suffix: 1.21.4 reads `1e5` as a string, 1.21.5 as a double. A
  // point may end the digits (`0.f`, `1.`): both read it as a number of the same type.
  const withExponent = suffixes
    .filter((suffix) => suffix !== '')
    .map(escapeRegExp)
    .join('|')
  const pattern = integer
    ? `^-?(?:0|[1-9][0-9]*)(${alternatives})$`
    : `^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+(?:${withExponent})|(?:${alternatives}))$`
  return {
    kind: 'number',
    integer,
    suffixes: new Set(suffixes),
    min: typeof raw.min === 'number' ? raw.min : null,
    max: typeof raw.max === 'number' ? raw.max : null,
    pattern: new RegExp(pattern),
  }
}

/** Whether a type of `kind` reads a value of `shape` (docs: `oneOf`). */
export function acceptsShape(type: ValueType, shape: Shape): boolean {
  switch (type.kind) {
    case 'compound':
      return shape === 'compound'
    case 'list':
      return shape === 'list'
    case 'array':
      return shape === 'array'
    case 'string':
      return shape === 'quoted' || (shape === 'word' && type.words !== null)
    case 'text':
      return shape === 'quoted' || shape === 'compound' || shape === 'list'
    case 'enum':
      return shape === 'quoted' || shape === 'word'
    case 'number':
    case 'boolean':
      return shape === 'word'
    case 'oneOf':
      for (const alternative of type.of) if (acceptsShape(alternative, shape)) return true
      return false
    case 'none':
      return false
  }
}

/**
 * The alternative of `type` that reads a value of `shape` (itself when not a `oneOf`; the first
 * that accepts the shape, nested `oneOf`s resolved the same way), or null when none does.
 */
export function pick(type: ValueType, shape: Shape): ValueType | null {
  if (type.kind !== 'oneOf') return acceptsShape(type, shape) ? type : null
  for (const alternative of type.of) {
    if (acceptsShape(alternative, shape)) return pick(alternative, shape)
  }
  return null
}

/** Whether the word `word` is a number of `type`, range included. */
export function isNumberWord(type: NumberType, word: string): boolean {
  if (!type.pattern.test(word)) return false
  if (!type.integer) return (type.min === null && type.max === null) || inRange(type, word)
  // An integer's suffix is at most its last character, a letter.
  const last = word.charCodeAt(word.length - 1)
  const suffix = last >= 0x41 ? word[word.length - 1]! : ''
  const value = Number(suffix === '' ? word : word.slice(0, -1))
  const [min, max] = SUFFIX_RANGES[suffix] ?? [-Infinity, Infinity]
  if (value < min || value > max) return false
  return (type.min === null || value >= type.min) && (type.max === null || value <= type.max)
}

/** Whether `word`, unquoted, is the string type `type` (`words`). */
export function isStringWord(type: StringType, word: string): boolean {
  // 1.21.5 reads `true` and `false` in any case as bytes, 1.21.4 only in lower case.
  const lower = word.toLowerCase()
  return type.words !== null && lower !== 'true' && lower !== 'false' && type.words.test(word)
}

/** Whether the decimal `word` (its `f`, `d` suffix dropped) is within the range of `type`. */
function inRange(type: NumberType, word: string): boolean {
  const value = Number(/[fFdD]$/.test(word) ? word.slice(0, -1) : word)
  return (type.min === null || value >= type.min) && (type.max === null || value <= type.max)
}

/** Whether the word `word` is a boolean: `true`, `false`, or a byte of 0 or 1 (`0b`, `-0B`, `1b`). */
export function isBooleanWord(word: string): boolean {
  return BOOLEAN_WORDS.has(word)
}

const BOOLEAN_WORDS: ReadonlySet<string> = new Set([
  'true',
  'false',
  '0b',
  '0B',
  '-0b',
  '-0B',
  '1b',
  '1B',
])

/** The types as the default version reads them (`versions.default`). */
export const DEFAULT_TYPES = new TypeSet(
  eraOverrides((data as unknown as { versions: Versions }).versions.default),
)

/** The type of each entity key, as one version reads them (`keyTypesOf`). */
export type KeyTypes = ReadonlyMap<string, ValueType>

/** The type of each entity key as the default version reads it. */
export const KEY_TYPES: KeyTypes = DEFAULT_TYPES.keyTypes

/** `vocabulary.json`'s `versions`. */
export interface Versions {
  default: string
  eras: ReadonlyArray<{ from: string; types: Record<string, RawType> }>
}

/** The `types` of the era that begins at `from`. */
function eraOverrides(from: string): Record<string, RawType> {
  const era = (data as unknown as { versions: Versions }).versions.eras.find(
    (candidate) => candidate.from === from,
  )
  if (era === undefined) throw new Error(`vocabulary.json: no era from "${from}"`)
  return era.types
}
