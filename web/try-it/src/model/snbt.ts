/**
 * SNBT as the model reads it: the display-model check's own reader (`readSnbtTree`, with the
 * check's grammar and limits, nesting to `SNBT_MAX_DEPTH`), building plain values as it reads
 * (no tree of the check's in between: the page reads models of many megabytes).
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
  type SnbtBuilder,
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
  const values = new PlainValues()
  const reading = readSnbtTree(text, values)
  if (!reading.ok) return { ok: false, message: reading.message }
  // A refusal of the text's grammar anywhere comes first, as it would from a whole tree.
  if (values.fault !== null) return { ok: false, message: values.fault }
  return { ok: true, value: reading.value }
}

/** Whether a value is a compound (not a list, typed array, number or string). */
export function isCompound(value: SnbtValue | undefined): value is SnbtCompound {
  return typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)
}

type Entries = Record<string, SnbtValue>

/** Builds plain values as the check's reader reads them. */
class PlainValues implements SnbtBuilder<SnbtValue, Entries> {
  /** The first typed array that holds a non-integer: the text reads as nothing. */
  fault: string | null = null

  text(value: string, quoted: boolean): SnbtValue {
    return quoted ? value : scalar(value)
  }

  list(items: SnbtValue[]): SnbtValue {
    return items
  }

  array(prefix: 'B' | 'I' | 'L', words: string[]): SnbtValue {
    for (const [i, word] of words.entries()) {
      if (!INTEGER.test(word)) {
        this.fault ??= `The SNBT [${prefix};...] holds a non-integer`
        return []
      }
      words[i] = word.replace(/[bsl]$/i, '')
    }
    if (prefix === 'B') return Int8Array.from(words, Number)
    if (prefix === 'I') return Int32Array.from(words, Number)
    return BigInt64Array.from(words, (word) => BigInt.asIntN(64, BigInt(word)))
  }

  compound(): Entries {
    return Object.create(null) as Entries
  }

  member(entries: Entries, name: string, value: SnbtValue): void {
    entries[name] = value
  }

  closed(entries: Entries): SnbtValue {
    return entries
  }
}

/** A word of Minecraft's integer grammar, `[-+]?\d+[bsl]?` (a typed array's items). */
const INTEGER = /^[-+]?\d+[bsl]?$/i

/**
 * A word as Minecraft reads it: `[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?` then a suffix (`b`, `s`,
 * `l` on integers only; `f`, `d`; none: an int, or a double with a point or an exponent), else
 * `true`, `false` or a string. Read a character at a time rather than by regular expressions:
 * most of a frame's text is numbers, and the expressions were half the page's reading time.
 */
function scalar(word: string): SnbtValue {
  const length = word.length
  let at = 0
  let code = word.charCodeAt(0)
  if (code === 0x2b || code === 0x2d) code = word.charCodeAt(++at) // + -
  const first = at
  while (isDigit(code)) code = word.charCodeAt(++at)
  let digits = at - first
  let integral = true
  if (code === 0x2e) {
    // .
    integral = false
    const fraction = ++at
    code = word.charCodeAt(at)
    while (isDigit(code)) code = word.charCodeAt(++at)
    digits += at - fraction
  }
  if (digits === 0) return word === 'true' ? 1 : word === 'false' ? 0 : word
  if (code === 0x65 || code === 0x45) {
    // e E
    integral = false
    code = word.charCodeAt(++at)
    if (code === 0x2b || code === 0x2d) code = word.charCodeAt(++at)
    if (!isDigit(code)) return word
    while (isDigit(code)) code = word.charCodeAt(++at)
  }
  const body = word.slice(0, at)
  if (at === length) return Number(body) // an int, or a double with a point or an exponent
  if (at !== length - 1) return word
  const suffix = code | 0x20 // lower case
  if (suffix === 0x66 || suffix === 0x64) return Number(body) // f d
  if (integral && (suffix === 0x62 || suffix === 0x73 || suffix === 0x6c)) return Number(body) // b s l
  return word
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}
