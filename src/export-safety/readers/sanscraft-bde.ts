/**
 * SansCraft-Network/sanscraft-bde's reading of a passenger string: it splits the string at the
 * commas outside quotes and brackets (`splitObjects`, aware of `"` and `'` and of backslashes
 * before a quote), then flattens each piece's passengers (`collectAllPassengers`): it finds the
 * first `Passengers:[` (else `passengers:[`) by text, blind to quotes, takes the list to its
 * matching `]` counting brackets blind to quotes, cuts it into compounds counting braces blind to
 * quotes, and removes the `Passengers:[...]` member from the piece; each part is one entity, of
 * the type its compound names. Written again here so that the check reads every passenger string
 * as it does (docs/export-safety.md, "Readers this check holds for").
 */
import type { ReaderEntity } from './reader-entity.js'

const NESTED = 'Passengers:['
const NESTED_LOWER = 'passengers:['

/**
 * The entities sanscraft-bde summons from the passenger string `passengers`, parents first. The
 * plugin searches each piece again at every level of nesting; this reading gives the same
 * entities in one pass over the string: each piece and each nested compound is a range of it,
 * and the plugin's blind bracket and brace counting is read from one table of matches.
 */
export function sansCraft(passengers: string): ReaderEntity[] {
  const flat: ReaderEntity[] = []
  forEachSansCraftEntity(passengers, (start, end, joined) => {
    flat.push(entity(joined ?? passengers.slice(start, end)))
  })
  return flat
}

/**
 * An entity of sanscraft-bde's reading of a passenger string, handed over as a range of it: the
 * piece or nested compound `[start, end)`, and `joined`, the text the reader summons when it
 * removed the range's `Passengers:[...]` member, else null (it summons the range as written).
 * Answers false to stop the reading.
 */
export type SansCraftEach = (start: number, end: number, joined: string | null) => boolean | void

/**
 * `sansCraft`'s entities handed to `each` one at a time, in the same order, none of them kept
 * nor made: the check reads each and lets it go (or knows a range as written from its own
 * reading), so a model of many parts holds one of them at a time.
 */
export function forEachSansCraftEntity(passengers: string, each: SansCraftEach): void {
  const reading = new NestedReading(passengers, each)
  for (const [start, end] of splitObjects(passengers)) {
    if (!reading.collect(start, end)) return
  }
}

/** Whether `text` holds what sanscraft-bde takes for a passenger list (else it reads pieces). */
export function mayNest(text: string): boolean {
  return text.includes(NESTED) || text.includes(NESTED_LOWER)
}

/**
 * Whether the plugin's pieces of `text` (`splitObjects`) are the compounds that stand in it at
 * `[starts[i], ends[i])`, joined by bare commas from the first character to the last, as
 * SuperBlocksDisplays' reading already required: the same walk as `splitObjects`, its cuts
 * compared in place, nothing made.
 */
export function cutsBetween(text: string, ends: readonly number[]): boolean {
  let depth = 0
  let cut = 0
  // Only quotes, brackets and commas change the walk: the characters between them are skipped
  // by a table outside quotes and by a native search for the closing quote inside.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0x80 || CUT_WALK[c] === 0) continue
    if (c === 0x22 || c === 0x27) {
      i = closingQuote(text, i)
      if (i < 0) break
    } else if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) depth--
    else if (depth === 0) {
      // A comma: each cut must be the comma right after a compound but the last.
      if (cut >= ends.length - 1 || ends[cut] !== i) return false
      cut++
    }
  }
  return cut === ends.length - 1
}

/** The characters that change `cutsBetween`'s walk outside quotes: quotes, brackets, commas. */
const CUT_WALK = new Uint8Array(0x80)
for (const char of '"\'{}[],') CUT_WALK[char.charCodeAt(0)] = 1

/**
 * Where the quote opened at `open` of `text` closes: its next quote character with an even
 * number of backslashes before it; -1 when none does (the walk ends inside the quotes).
 */
function closingQuote(text: string, open: number): number {
  const quote = text[open]!
  for (let i = text.indexOf(quote, open + 1); i >= 0; i = text.indexOf(quote, i + 1)) {
    let escapes = 0
    for (let j = i - 1; j >= 0 && text.charCodeAt(j) === 0x5c; j--) escapes++
    if (escapes % 2 === 0) return i
  }
  return -1
}

/**
 * The plugin's pieces of a passenger string, as ranges of it: trimmed, without one pair of
 * outer brackets, split at commas outside quotes and brackets.
 */
function splitObjects(text: string): [number, number][] {
  const list: [number, number][] = []
  let [from, to] = trimmed(text, 0, text.length)
  if (from === to) return list
  if (text[from] === '[' && text[to - 1] === ']') [from, to] = trimmed(text, from + 1, to - 1)
  let depth = 0
  let start = from
  // Only quotes, brackets and commas (at depth 0) change the walk: it goes from one to the next
  // by a global pattern outside quotes and by a native search for the closing quote inside.
  for (let at = from; at < to;) {
    const walk = depth === 0 ? SPLIT_WALK : SPLIT_WALK_INSIDE
    walk.lastIndex = at
    if (!walk.test(text)) break
    const i = walk.lastIndex - 1
    if (i >= to) break
    at = i + 1
    const c = text.charCodeAt(i)
    if (c === 0x22 || c === 0x27) {
      const close = closingQuoteWithin(text, i, from, to)
      if (close < 0) break
      at = close + 1
    } else if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) depth--
    else {
      // A comma at depth 0.
      const part = trimmed(text, start, i)
      if (part[0] < part[1]) list.push(part)
      start = i + 1
    }
  }
  const last = trimmed(text, start, to)
  if (last[0] < last[1]) list.push(last)
  return list
}

/** The characters that change `splitObjects`' walk outside quotes, at depth 0 and deeper. */
const SPLIT_WALK = /["'{}[\],]/g
const SPLIT_WALK_INSIDE = /["'{}[\]]/g

/**
 * Where the quote opened at `open` closes within `[from, to)` of `text`: its next quote character
 * with an even number of backslashes before it, counted back to `from`; -1 when none does.
 */
function closingQuoteWithin(text: string, open: number, from: number, to: number): number {
  const quote = text[open]!
  for (let i = text.indexOf(quote, open + 1); i >= 0 && i < to; i = text.indexOf(quote, i + 1)) {
    let escapes = 0
    for (let j = i - 1; j >= from && text.charCodeAt(j) === 0x5c; j--) escapes++
    if (escapes % 2 === 0) return i
  }
  return -1
}

/** `[from, to)` of `text` without the white space JavaScript's `trim` cuts at either end. */
function trimmed(text: string, from: number, to: number): [number, number] {
  while (from < to && isTrimmed(text.charCodeAt(from))) from++
  while (to > from && isTrimmed(text.charCodeAt(to - 1))) to--
  return [from, to]
}

function isTrimmed(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/**
 * The plugin's flattening of a passenger string's pieces (`collectAllPassengers`), each piece and
 * nested compound a range `[start, end)` of `text`. Its counting is blind to quotes and starts
 * at an opening bracket (or brace), so within any range that holds the opening one it ends where
 * the same count over the whole string ends: `matches` holds, for every `[` and `{` of `text`,
 * the index of its match counted that way (brackets and braces each on their own), or -1.
 */
class NestedReading {
  private readonly text: string
  private readonly matches: BlindMatches
  /** Where `Passengers:[` and `passengers:[` stand in `text`, in order. */
  private readonly upper: number[]
  private readonly lower: number[]
  private readonly each: SansCraftEach

  constructor(text: string, each: SansCraftEach) {
    this.text = text
    this.each = each
    this.matches = new BlindMatches(text)
    this.upper = occurrences(text, NESTED)
    this.lower = occurrences(text, NESTED_LOWER)
  }

  /**
   * The entity of the piece `[start, end)` and those of its nested compounds, parents first,
   * each handed to `each`; false once `each` stopped the reading.
   */
  collect(start: number, end: number): boolean {
    const text = this.text
    const list = this.passengersList(start, end)
    if (list === null) return this.each(start, end, null) !== false
    const [at, close] = list
    if (this.each(start, end, this.withoutList(start, end, at, close)) === false) return false
    // The list's compounds: a `{` at depth 0 opens one, which ends at its match; a `}` at depth
    // 0 takes the depth below 0, where no `{` opens one until it is back at 0.
    let depth = 0
    for (let i = at + NESTED.length; i < close; i++) {
      const c = text.charCodeAt(i)
      if (c === 0x7b) {
        if (depth === 0) {
          const match = this.matches.of(i)
          if (match < 0 || match >= close) return true
          if (!this.collect(i, match + 1)) return false
          i = match
          continue
        }
        depth++
      } else if (c === 0x7d) depth--
    }
    return true
  }

  /**
   * `[where the member starts, index of its closing ]]` of the piece `[start, end)`: its first
   * `Passengers:[`, else its first `passengers:[`, to the matching `]`; null when it has neither,
   * or the list does not close within it.
   */
  private passengersList(start: number, end: number): [number, number] | null {
    let at = firstWithin(this.upper, start, end)
    if (at < 0) at = firstWithin(this.lower, start, end)
    if (at < 0) return null
    const close = this.matches.of(at + NESTED.length - 1)
    return close >= 0 && close < end ? [at, close] : null
  }

  /** The piece `[start, end)` without its list `[at, close]`, joined as the plugin joins it. */
  private withoutList(start: number, end: number, at: number, close: number): string {
    const text = this.text
    const [prefixStart, prefixEnd] = trimmed(text, start, at)
    const [suffixStart, suffixEnd] = trimmed(text, close + 1, end)
    const prefix = text.slice(prefixStart, prefixEnd)
    const suffix = text.slice(suffixStart, suffixEnd)
    if (prefix.endsWith(',') && suffix.startsWith(',')) return prefix + suffix.slice(1)
    if (prefix.endsWith(',')) {
      return suffix.startsWith('}') ? prefix.slice(0, -1) + suffix : prefix + suffix
    }
    if (suffix.startsWith(',')) return prefix + suffix.slice(1)
    return prefix + suffix
  }
}

function entity(compound: string): ReaderEntity {
  return { type: typeNamed(compound), compound }
}

/**
 * For every `[` and `{` of a text, the index of the `]` (or `}`) where a count starting at it,
 * blind to quotes and to the other kind, first comes back to 0; -1 when none does. Kept for the
 * opening characters only (their places in order, and their matches), so that its size follows
 * the brackets a text holds, not its length.
 */
class BlindMatches {
  private readonly opens: Int32Array
  private readonly matches: Int32Array

  constructor(text: string) {
    // A global pattern's `test` moves from bracket to bracket without a character loop in between
    // and without a match made: a model is mostly other characters.
    let count = 0
    OPENING.lastIndex = 0
    while (OPENING.test(text)) count++
    this.opens = new Int32Array(count)
    this.matches = new Int32Array(count).fill(-1)
    // Each kind's open ones, as indexes into `opens`.
    const brackets = new Int32Array(count)
    const braces = new Int32Array(count)
    let bracketDepth = 0
    let braceDepth = 0
    let open = 0
    BRACKET.lastIndex = 0
    while (BRACKET.test(text)) {
      const i = BRACKET.lastIndex - 1
      const c = text.charCodeAt(i)
      if (c === 0x5b) {
        brackets[bracketDepth++] = open
        this.opens[open++] = i
      } else if (c === 0x7b) {
        braces[braceDepth++] = open
        this.opens[open++] = i
      } else if (c === 0x5d) {
        if (bracketDepth > 0) this.matches[brackets[--bracketDepth]!] = i
      } else if (braceDepth > 0) this.matches[braces[--braceDepth]!] = i
    }
  }

  /** The match of the `[` or `{` at `at`. */
  of(at: number): number {
    let low = 0
    let high = this.opens.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.opens[middle]! < at) low = middle + 1
      else high = middle
    }
    return this.opens[low] === at ? this.matches[low]! : -1
  }
}

/** The opening brackets and braces, and all four of them (`BlindMatches`; from 0 each time). */
const OPENING = /[[{]/g
const BRACKET = /[[\]{}]/g

function occurrences(text: string, marker: string): number[] {
  const found: number[] = []
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
    found.push(at)
  }
  return found
}

/** The first of the ordered `places` at which the marker stands whole within `[start, end)`. */
function firstWithin(places: readonly number[], start: number, end: number): number {
  let low = 0
  let high = places.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (places[middle]! < start) low = middle + 1
    else high = middle
  }
  const at = places[low]
  return at !== undefined && at + NESTED.length <= end ? at : -1
}

/** The type a compound's text names (its first `id:"..."`, namespace dropped), as the plugin reads it. */
function typeNamed(compound: string): string {
  const named = /id:"(?:minecraft:)?([^"]*)"/.exec(compound)
  return named?.[1] ?? 'unknown'
}
