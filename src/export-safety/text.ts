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
import { ITEM_TEXT_KEYS, WORLD_READING_KINDS } from './vocabulary.js'

/** Text that holds none of these is plain text, whatever JSON reader reads it. */
const STRUCTURE = /[{[]/

/**
 * Throws `text` when the JSON text `value` (an SNBT string holding JSON, or SNBT text
 * components) has a component that reads the world: `found` its kind, the first met in document
 * order (depth first). A string holding `{` or `[` that is not strict JSON: `found` `not JSON`
 * (a lenient reader could read a component there).
 */
export function checkText(value: SnbtValue | null): void {
  if (value === null || value.kind === 'array') return
  if (value.kind === 'text') {
    if (!STRUCTURE.test(value.value)) return
    let parsed: unknown
    try {
      parsed = JSON.parse(value.value)
    } catch {
      throw new UnsafeContent('text', 'not JSON')
    }
    checkJson(parsed)
    return
  }
  if (value.kind === 'list') {
    for (const item of value.items) checkText(item)
    return
  }
  for (const [name, member] of value.members) {
    if (WORLD_READING_KINDS.includes(name)) throw new UnsafeContent('text', name)
    checkText(member)
  }
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

function checkJson(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) checkJson(item)
    return
  }
  if (typeof value !== 'object' || value === null) return
  for (const [name, member] of Object.entries(value)) {
    if (WORLD_READING_KINDS.includes(name)) throw new UnsafeContent('text', name)
    checkJson(member)
  }
}
