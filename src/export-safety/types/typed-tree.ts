/**
 * Types applied to JSON text already read whole (`JSON.parse` output), and the pieces the SNBT
 * reader shares (`snbt.ts` reads text written as SNBT the same way, as it goes). Only whether it
 * matches is answered: a fault inside a text is named at the text's own path
 * (docs/export-safety.md, "The vocabulary file"), so the order a JSON reader keeps members in
 * never changes a verdict.
 */
import { isBooleanWord, isNumberWord, pick, type Shape, type ValueType } from './types.js'
import { MAX_SNBT_DEPTH, REFUSED_TEXT_MEMBERS } from './vocabulary.js'

/** Whether the JSON value `value` (as `JSON.parse` returns it) is of `type`. */
function jsonMatches(type: ValueType, value: unknown): boolean {
  if (value === null) return false
  if (typeof value === 'number') return jsonNumberMatches(type, value)
  const shape: Shape = Array.isArray(value)
    ? 'list'
    : typeof value === 'object'
      ? 'compound'
      : typeof value === 'string'
        ? 'quoted'
        : 'word'
  const chosen = pick(type, shape)
  if (chosen === null) return false
  switch (chosen.kind) {
    case 'compound': {
      for (const [name, member] of Object.entries(value as object)) {
        const memberType = memberTypeOf(chosen, name)
        if (memberType === null || !jsonMatches(memberType, member)) return false
      }
      return true
    }
    case 'list': {
      const items = value as unknown[]
      if (chosen.length !== null && items.length !== chosen.length) return false
      return items.every((item) => jsonMatches(chosen.of, item))
    }
    case 'text':
      return jsonMatches(chosen.of, value)
    default:
      return wordOrStringMatches(chosen, String(value))
  }
}

/**
 * A JSON number matches a number type whose suffixes include none, by its value: an integer type
 * wants an integer in the int range and the type's own.
 */
export function jsonNumberMatches(type: ValueType, value: number): boolean {
  const chosen = pick(type, 'word')
  if (chosen?.kind !== 'number' || !chosen.suffixes.has('') || !Number.isFinite(value)) {
    return false
  }
  if (!chosen.integer) return true
  return (
    Number.isInteger(value) &&
    value >= -2147483648 &&
    value <= 2147483647 &&
    (chosen.min === null || value >= chosen.min) &&
    (chosen.max === null || value <= chosen.max)
  )
}

/** The type of the member `name` of a compound of `type`, or null when it has none. */
export function memberTypeOf(
  type: ValueType & { kind: 'compound' },
  name: string,
): ValueType | null {
  // An open compound (`Properties`) looks no name up: in workerd a lookup of a string never seen
  // keeps about that string until a full collection, even in an empty map
  // (docs/performance.md, "Adversarial publishes").
  if (type.members.size === 0) return type.others
  const key = type.namespace !== null && !name.includes(':') ? type.namespace + name : name
  return type.members.get(key) ?? type.others
}

/** Whether a quoted string's value or a word, `text`, is of the scalar type `type`. */
export function wordOrStringMatches(type: ValueType, text: string): boolean {
  switch (type.kind) {
    case 'number':
      return isNumberWord(type, text)
    case 'boolean':
      return isBooleanWord(text)
    case 'enum':
      return type.values.has(text)
    case 'string':
      return type.pattern === null || type.pattern.test(text)
    default:
      return false
  }
}

/** What one walk over a text learns besides whether it matches its type. */
export interface TextFacts {
  /** The world-reading kinds and click events named anywhere in it, as member names. */
  kinds: Set<string>
  /** An array, or an object, nested at `MAX_SNBT_DEPTH` or deeper (JSON text). */
  tooDeepArray: boolean
  tooDeepObject: boolean
  /** The placeholder in a string or a member name (text written as SNBT, `snbt.ts`). */
  placeholder: boolean
}

/** Facts to fill in. */
export function textFacts(): TextFacts {
  return { kinds: new Set(), tooDeepArray: false, tooDeepObject: false, placeholder: false }
}

/**
 * Whether the JSON value `value` is of `type` (null: a type already failed above, only the facts
 * are gathered), in one walk that also gathers `facts` everywhere in it, to `MAX_SNBT_DEPTH`.
 */
export function jsonTextMatches(
  value: unknown,
  type: ValueType | null,
  depth: number,
  facts: TextFacts,
): boolean {
  if (typeof value !== 'object' || value === null) return type !== null && jsonMatches(type, value)
  const isArray = Array.isArray(value)
  if (depth >= MAX_SNBT_DEPTH) {
    if (isArray) facts.tooDeepArray = true
    else facts.tooDeepObject = true
    return false
  }
  let chosen = type === null ? null : pick(type, isArray ? 'list' : 'compound')
  while (chosen?.kind === 'text') chosen = pick(chosen.of, isArray ? 'list' : 'compound')
  let matches = chosen !== null
  if (isArray) {
    const items = value as unknown[]
    const of = chosen?.kind === 'list' ? chosen.of : null
    if (chosen?.kind === 'list' && chosen.length !== null && items.length !== chosen.length) {
      matches = false
    }
    for (const item of items) {
      matches = jsonTextMatches(item, matches ? of : null, depth + 1, facts) && matches
    }
    return matches
  }
  const members = value as Record<string, unknown>
  for (const name in members) {
    if (REFUSED_TEXT_MEMBERS.includes(name)) facts.kinds.add(name)
    const memberType = matches && chosen?.kind === 'compound' ? memberTypeOf(chosen, name) : null
    if (memberType === null) matches = false
    matches =
      jsonTextMatches(members[name], matches ? memberType : null, depth + 1, facts) && matches
  }
  return matches
}
