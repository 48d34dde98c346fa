/**
 * JSON text (a text component) that does not read the world and is written in the text
 * grammar. The game resolves a text component of the kinds `selector`, `nbt` and `score` against
 * the world, with the permissions of whoever runs the summon or `data merge` (the console): a
 * model could show players' names, positions and inventories. A click event runs, suggests or
 * opens something when a player clicks the text, and command feedback prints a part's name with
 * its click event to operators. So in every text (a value whose
 * type is of kind `text`: a text display's `text`, any part's `CustomName`, an item's names and
 * lore) those kinds are refused; then the text must be of the text grammar of `vocabulary.json`
 * (`textValue`: plain text, `translate`, `keybind`, `extra`, styling, hover events that show text).
 */
import { NOT_JSON, REPEATED, readJsonText } from './json-text.js'
import {
  UnsafeContent,
  jsonTextMatches,
  textFacts,
  type TextFacts,
  type ValueType,
  CLICK_KINDS,
  WORLD_READING_KINDS,
} from '../types/index.js'

/** Text that holds none of these is plain text, whatever JSON reader reads it. */
const STRUCTURE = /[{[]/

/** What `readQuotedText` found. */
export interface QuotedTextReading {
  /** The refusal the text calls for, or null. */
  refusal: UnsafeContent | null
  /**
   * Whether it was read whole as JSON and no string in it holds a bracket: then its brackets,
   * counted blind to quotes, balance and nest.
   */
  balanced: boolean
}

/**
 * Reads the quoted string `value` as text of `type`, throwing nothing: without `{` or `[` it is
 * plain text; else it must be strict JSON (`text` `not JSON`: a lenient reader could read a
 * component there), nested at most `MAX_SNBT_DEPTH` (`depth`, `found` `[` when an array is too
 * deep, else `{`), hold none of `WORLD_READING_KINDS` nor `CLICK_KINDS` (`text`, the first of them it holds
 * anywhere, so the order a reader walks keys in never changes the verdict), and be of `type`
 * (`type` at `path`).
 */
export function readQuotedText(
  value: string,
  type: ValueType,
  path: () => string,
): QuotedTextReading {
  if (!STRUCTURE.test(value)) return { refusal: null, balanced: false }
  let facts = textFacts()
  let matches: boolean
  let balanced = false
  try {
    const strings = { bracket: false }
    matches = readJsonText(value, type, facts, strings)
    balanced = !strings.bracket
  } catch (fault) {
    if (fault === NOT_JSON) return { refusal: new UnsafeContent('text', 'not JSON'), balanced }
    if (fault !== REPEATED) throw fault
    // A repeated member: `JSON.parse` keeps its last value at its first place; read that. The
    // one-pass reader stops at the repeat, so what follows may still make the text no JSON.
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      return { refusal: new UnsafeContent('text', 'not JSON'), balanced }
    }
    facts = textFacts()
    matches = jsonTextMatches(parsed, type, 0, facts)
  }
  return { refusal: textRefusal(facts, matches, path), balanced }
}

function textRefusal(facts: TextFacts, matches: boolean, path: () => string): UnsafeContent | null {
  if (facts.tooDeepArray) return new UnsafeContent('depth', '[')
  if (facts.tooDeepObject) return new UnsafeContent('depth', '{')
  for (const kind of WORLD_READING_KINDS) {
    if (facts.kinds.has(kind)) return new UnsafeContent('text', kind)
  }
  for (const kind of CLICK_KINDS) {
    if (facts.kinds.has(kind)) return new UnsafeContent('text', kind, 'click')
  }
  return matches ? null : new UnsafeContent('type', path())
}

/**
 * The verdict on text written as SNBT, from one reading of it (`facts`, and whether it matched
 * its type): no placeholder anywhere in it (`placeholder` at `path`), no world-reading kind
 * (`text`), then its type (`type` at `path`).
 */
export function checkSnbtText(facts: TextFacts, matches: boolean, path: () => string): void {
  if (facts.placeholder) throw new UnsafeContent('placeholder', path())
  throwWorldReading(facts.kinds)
  if (!matches) throw new UnsafeContent('type', path())
}

function throwWorldReading(found: ReadonlySet<string>): void {
  for (const kind of WORLD_READING_KINDS) if (found.has(kind)) throw new UnsafeContent('text', kind)
  for (const kind of CLICK_KINDS) {
    if (found.has(kind)) throw new UnsafeContent('text', kind, 'click')
  }
}
