/**
 * Types applied to a value already read whole: JSON text (`JSON.parse` output) and text written
 * as SNBT (a parsed tree). Only whether it matches is answered: a fault inside a text is named at
 * the text's own path (docs/export-safety.md, "The vocabulary file"), so the order a JSON reader
 * keeps members in never changes a verdict.
 */
import type { SnbtValue } from './snbt-value.js'
import { isBooleanWord, isNumberWord, pick, type Shape, type ValueType } from './types.js'

/** Whether the SNBT tree `value` is of `type`. */
export function snbtMatches(type: ValueType, value: SnbtValue): boolean {
  const shape: Shape =
    value.kind === 'text' ? (value.quoted ? 'quoted' : 'word') : (value.kind as Shape)
  const chosen = pick(type, shape)
  if (chosen === null) return false
  switch (chosen.kind) {
    case 'compound': {
      if (value.kind !== 'compound') return false
      for (const [name, member] of value.members) {
        const memberType = memberTypeOf(chosen, name)
        if (memberType === null || member === null || !snbtMatches(memberType, member)) {
          return false
        }
      }
      return true
    }
    case 'list':
      if (value.kind !== 'list') return false
      if (chosen.length !== null && value.items.length !== chosen.length) return false
      return value.items.every((item) => snbtMatches(chosen.of, item))
    case 'text':
      // Text written as SNBT inside text: read as the same grammar.
      return snbtMatches(chosen.of, value)
    default:
      return value.kind === 'text' && wordOrStringMatches(chosen, value.value)
  }
}

/** Whether the JSON value `value` (as `JSON.parse` returns it) is of `type`. */
export function jsonMatches(type: ValueType, value: unknown): boolean {
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
function jsonNumberMatches(type: ValueType, value: number): boolean {
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
  const key = type.namespace !== null && !name.includes(':') ? type.namespace + name : name
  return type.members.get(key) ?? type.others
}

function wordOrStringMatches(type: ValueType, text: string): boolean {
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
