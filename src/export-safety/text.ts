/**
 * JSON text that does not read the world. The game resolves a text component of the kinds
 * `selector`, `nbt` and `score` against the world, with the permissions of whoever runs the
 * summon or `data merge` (the console): a model could show players' names, positions and
 * inventories. So in every JSON text the check meets (a text display's `text`, any part's
 * `CustomName`, an item's names and lore), those components are refused; plain text,
 * `translate`, `keybind` and styling stay.
 */
import { UnsafeContent } from './refusal.js'
import type { SnbtValue } from './snbt.js'
import { ITEM_TEXT_KEYS, MAX_SNBT_DEPTH, WORLD_READING_KINDS } from './vocabulary.js'

/** Text that holds none of these is plain text, whatever JSON reader reads it. */
const STRUCTURE = /[{[]/

/**
 * Throws when the JSON text `value` reads the world. A list is read item by item, in order; each
 * string (JSON text) or SNBT compound is one text: a string holding `{` or `[` that is not strict
 * JSON is `text` `not JSON` (a lenient reader could read a component there); JSON nested deeper
 * than `MAX_SNBT_DEPTH` is `depth` (`found` `[` when an array is too deep, else `{`); then, when
 * the text holds components of several kinds, `found` is the first of `WORLD_READING_KINDS`
 * (`selector`, `nbt`, `score`) it holds, wherever they stand, so that the order a reader walks
 * keys in (JavaScript puts integer-like keys first) never changes the verdict.
 */
export function checkText(value: SnbtValue | null): void {
  if (value === null || value.kind === 'array') return
  if (value.kind === 'list') {
    for (const item of value.items) checkText(item)
    return
  }
  const found = new Set<string>()
  if (value.kind === 'compound') collectSnbt(value, found)
  else {
    if (!STRUCTURE.test(value.value)) return
    let parsed: unknown
    try {
      parsed = JSON.parse(value.value)
    } catch {
      throw new UnsafeContent('text', 'not JSON')
    }
    const tooDeep = { array: false, object: false }
    collectJson(parsed, 0, found, tooDeep)
    if (tooDeep.array) throw new UnsafeContent('depth', '[')
    if (tooDeep.object) throw new UnsafeContent('depth', '{')
  }
  for (const kind of WORLD_READING_KINDS) if (found.has(kind)) throw new UnsafeContent('text', kind)
}

/** The texts of an item, at any depth inside it: its names and lore (`ITEM_TEXT_KEYS`). */
export function checkItemText(item: SnbtValue | null): void {
  if (item === null) return
  if (item.kind === 'list') for (const value of item.items) checkItemText(value)
  if (item.kind !== 'compound') return
  for (const [name, value] of item.members) {
    if (ITEM_TEXT_KEYS.has(name)) checkText(value)
    else checkItemText(value)
  }
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
