/**
 * JSON text (a text component) that does not read the world and is written in the text
 * grammar. The game resolves a text component of the kinds `selector`, `nbt` and `score` against
 * the world, with the permissions of whoever runs the summon or `data merge` (the console): a
 * model could show players' names, positions and inventories. So in every text (a value whose
 * type is of kind `text`: a text display's `text`, any part's `CustomName`, an item's names and
 * lore) those kinds are refused; then the text must be of the text grammar of `vocabulary.json`
 * (`textValue`: plain text, `translate`, `keybind`, `extra`, styling, click and hover events).
 */
import { UnsafeContent } from './refusal.js'
import type { SnbtValue } from './snbt-value.js'
import { jsonMatches, snbtMatches } from './typed-tree.js'
import type { ValueType } from './types.js'
import { MAX_SNBT_DEPTH, WORLD_READING_KINDS } from './vocabulary.js'

/** Text that holds none of these is plain text, whatever JSON reader reads it. */
const STRUCTURE = /[{[]/

/**
 * Throws unless the quoted string `value` is text of `type`: without `{` or `[` it is plain
 * text; else it must be strict JSON (`text` `not JSON`: a lenient reader could read a component
 * there), nested at most `MAX_SNBT_DEPTH` (`depth`, `found` `[` when an array is too deep, else
 * `{`), hold none of `WORLD_READING_KINDS` (`text`, the first of them it holds anywhere, so the
 * order a reader walks keys in never changes the verdict), and be of `type` (`type` at `path`).
 */
export function checkJsonText(value: string, type: ValueType, path: () => string): void {
  if (!STRUCTURE.test(value)) return
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new UnsafeContent('text', 'not JSON')
  }
  const found = new Set<string>()
  const tooDeep = { array: false, object: false }
  collectJson(parsed, 0, found, tooDeep)
  if (tooDeep.array) throw new UnsafeContent('depth', '[')
  if (tooDeep.object) throw new UnsafeContent('depth', '{')
  throwWorldReading(found)
  if (!jsonMatches(type, parsed)) throw new UnsafeContent('type', path())
}

/** The same for text written as SNBT (a compound or a list, read whole). */
export function checkSnbtText(value: SnbtValue, type: ValueType, path: () => string): void {
  const found = new Set<string>()
  collectSnbt(value, found)
  throwWorldReading(found)
  if (!snbtMatches(type, value)) throw new UnsafeContent('type', path())
}

function throwWorldReading(found: ReadonlySet<string>): void {
  for (const kind of WORLD_READING_KINDS) if (found.has(kind)) throw new UnsafeContent('text', kind)
}

/** Adds the world-reading kinds named anywhere in an SNBT text to `found`. */
function collectSnbt(value: SnbtValue | null, found: Set<string>): void {
  if (value === null) return
  if (value.kind === 'list') for (const item of value.items) collectSnbt(item, found)
  if (value.kind !== 'compound') return
  for (const [name, member] of value.members) {
    if (WORLD_READING_KINDS.includes(name)) found.add(name)
    collectSnbt(member, found)
  }
}

/** Adds the world-reading kinds named anywhere in JSON text to `found`, to `MAX_SNBT_DEPTH`. */
function collectJson(
  value: unknown,
  depth: number,
  found: Set<string>,
  tooDeep: { array: boolean; object: boolean },
): void {
  if (typeof value !== 'object' || value === null) return
  const isArray = Array.isArray(value)
  if (depth >= MAX_SNBT_DEPTH) {
    if (isArray) tooDeep.array = true
    else tooDeep.object = true
    return
  }
  if (isArray) {
    for (const item of value) collectJson(item, depth + 1, found, tooDeep)
    return
  }
  for (const [name, member] of Object.entries(value)) {
    if (WORLD_READING_KINDS.includes(name)) found.add(name)
    collectJson(member, depth + 1, found, tooDeep)
  }
}
