/**
 * SNBT as the model reads it: the display-model check's own reader (`readSnbtTree`, with the
 * check's grammar and limits, nesting to `SNBT_MAX_DEPTH`), its tree turned into plain values.
 * The page has no SNBT parser of its own, so it never draws a model the check reads differently.
 * Words become numbers by Minecraft's suffixes (`b`, `s`, `L`, `f`, `d`; none: an int, or a
 * double when written with a point or an exponent), `true`/`false` the bytes 1 and 0, any other
 * word a string; typed arrays `[B;..]`, `[I;..]`, `[L;..]` become typed arrays.
 *
 * It never throws: a reading is `{ ok: true, value }` or `{ ok: false, message }`.
 */
import {
  MAX_SNBT_DEPTH,
  readSnbtTree,
  type SnbtValue as SnbtTree,
} from '../../../../src/export-safety/index.js'

/** The check's limit on SNBT nesting. */
export const SNBT_MAX_DEPTH = MAX_SNBT_DEPTH

/** A compound: string keys, no prototype, so a key like `__proto__` is just a key. */
export interface SnbtCompound {
  readonly [key: string]: SnbtValue
}

/** A value. Numbers of every width are JS numbers (a long beyond 2^53 loses precision). */
export type SnbtValue =
  number | string | SnbtValue[] | SnbtCompound | Int8Array | Int32Array | BigInt64Array

/** The outcome of reading SNBT text. */
export type SnbtReading = { ok: true; value: SnbtValue } | { ok: false; message: string }

/** Reads one SNBT value that spans all of `text` (spaces around it allowed). */
export function readSnbt(text: string): SnbtReading {
  const reading = readSnbtTree(text)
  if (!reading.ok) return { ok: false, message: reading.message }
  try {
    return { ok: true, value: plain(reading.value) }
  } catch (error) {
    if (error instanceof NotAnInteger) return { ok: false, message: error.message }
    throw error
  }
}

/** Whether a value is a compound (not a list, typed array, number or string). */
export function isCompound(value: SnbtValue | undefined): value is SnbtCompound {
  return typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)
}

class NotAnInteger extends Error {}

/** The tree's values as plain ones (the tree is at most `SNBT_MAX_DEPTH` deep). */
function plain(tree: SnbtTree): SnbtValue {
  switch (tree.kind) {
    case 'text':
      return tree.quoted ? tree.value : scalar(tree.value)
    case 'list':
      return tree.items.map(plain)
    case 'array':
      return typedArray(tree.prefix, tree.items)
    case 'compound': {
      const entries = Object.create(null) as Record<string, SnbtValue>
      for (const [name, value] of tree.members) {
        // A whole tree keeps every member's value.
        if (value !== null) entries[name] = plain(value)
      }
      return entries
    }
  }
}

function typedArray(
  prefix: 'B' | 'I' | 'L',
  items: SnbtTree[],
): Int8Array | Int32Array | BigInt64Array {
  const words = items.map((item) => {
    const word = item.kind === 'text' ? item.value : ''
    if (!INTEGER.test(word)) throw new NotAnInteger(`The SNBT [${prefix};...] holds a non-integer`)
    return word.replace(/[bsl]$/i, '')
  })
  if (prefix === 'B') return Int8Array.from(words, Number)
  if (prefix === 'I') return Int32Array.from(words, Number)
  return BigInt64Array.from(words, (word) => BigInt.asIntN(64, BigInt(word)))
}

// Minecraft's number grammar. Anchored, and each run of digits can be matched one way only, so
// a megabyte token is tested in linear time.
const DOUBLE = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?d?$/i
const FLOAT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?f$/i
const INTEGER = /^[-+]?\d+[bsl]?$/i
const HAS_POINT_OR_EXPONENT = /[.e]/i

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
