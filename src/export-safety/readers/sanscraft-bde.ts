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

/** The entities sanscraft-bde summons from the passenger string `passengers`, parents first. */
export function sansCraft(passengers: string): ReaderEntity[] {
  const flat: string[] = []
  for (const piece of splitObjects(passengers)) collectAllPassengers(piece, flat)
  return flat.map((compound) => ({ type: typeNamed(compound), compound }))
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

/** The plugin's pieces of a passenger string: split at commas outside quotes and brackets. */
function splitObjects(snbt: string): string[] {
  const list: string[] = []
  let text = snbt.trim()
  if (text.length === 0) return list
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1).trim()
  let depth = 0
  let start = 0
  let inQuotes = false
  let quote = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inQuotes) {
      if (c === quote) {
        let escapes = 0
        for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) escapes++
        if (escapes % 2 === 0) inQuotes = false
      }
    } else if (c === '"' || c === "'") {
      inQuotes = true
      quote = c
    } else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') depth--
    else if (c === ',' && depth === 0) {
      const part = text.slice(start, i).trim()
      if (part.length > 0) list.push(part)
      start = i + 1
    }
  }
  const last = text.slice(start).trim()
  if (last.length > 0) list.push(last)
  return list
}

/** `[start of the member, start of the list's content, index of its closing ]]`, or null. */
function passengersList(snbt: string): [number, number, number] | null {
  let at = snbt.indexOf(NESTED)
  if (at < 0) at = snbt.indexOf(NESTED_LOWER)
  if (at < 0) return null
  const start = at + NESTED.length
  let depth = 1
  for (let i = start; i < snbt.length; i++) {
    if (snbt[i] === '[') depth++
    else if (snbt[i] === ']' && --depth === 0) return [at, start, i]
  }
  return null
}

function parsePassengers(snbt: string): string[] {
  const found = passengersList(snbt)
  if (found === null) return []
  const content = snbt.slice(found[1], found[2])
  const list: string[] = []
  let depth = 0
  let start = -1
  for (let i = 0; i < content.length; i++) {
    if (content[i] === '{') {
      if (depth === 0) start = i
      depth++
    } else if (content[i] === '}') {
      depth--
      if (depth === 0 && start !== -1) {
        list.push(content.slice(start, i + 1))
        start = -1
      }
    }
  }
  return list
}

function removePassengersTag(snbt: string): string {
  const found = passengersList(snbt)
  if (found === null) return snbt
  const prefix = snbt.slice(0, found[0]).trim()
  const suffix = snbt.slice(found[2] + 1).trim()
  if (prefix.endsWith(',') && suffix.startsWith(',')) return prefix + suffix.slice(1)
  if (prefix.endsWith(',')) {
    return suffix.startsWith('}') ? prefix.slice(0, -1) + suffix : prefix + suffix
  }
  if (suffix.startsWith(',')) return prefix + suffix.slice(1)
  return prefix + suffix
}

// Each level searches its own piece again: bounded by the grammar's depth limit, since the
// check runs this only on strings the grammar read.
function collectAllPassengers(snbt: string, flat: string[]): void {
  flat.push(removePassengersTag(snbt))
  for (const child of parsePassengers(snbt)) collectAllPassengers(child, flat)
}

/** The type a compound's text names (its first `id:"..."`, namespace dropped), as the plugin reads it. */
function typeNamed(compound: string): string {
  const named = /id:"(?:minecraft:)?([^"]*)"/.exec(compound)
  return named?.[1] ?? 'unknown'
}
