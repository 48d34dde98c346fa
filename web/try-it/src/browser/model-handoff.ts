/**
 * Handing the model's parts to the Web Worker without freezing the page. `postMessage` copies
 * what it sends in one go on the page's thread: the animations of a 19 MB export (a million of
 * them) took 0.8 s to copy there. So large lists and objects go in slices of SLICE_ENTRIES
 * entries, one message each, with a pause every few milliseconds in which the page answers its
 * inputs; the worker puts them back together (model-assembly.ts).
 */
import type { ModelField, ModelQuestion } from './model-protocol.js'

/** Entries of a list or an object sent in one message at most. */
export const SLICE_ENTRIES = 10_000

/** The messages that carry `parts` (from modelPartsOf), in order. */
export function* sliceModelParts(parts: Record<ModelField, unknown>): Generator<ModelQuestion> {
  for (const [field, value] of Object.entries(parts) as [ModelField, unknown][]) {
    if (Array.isArray(value)) {
      for (let at = 0; at < value.length; at += SLICE_ENTRIES) {
        yield { kind: 'items', field, items: value.slice(at, at + SLICE_ENTRIES) }
      }
    } else if (value !== null && typeof value === 'object') {
      yield { kind: 'entries', field, entries: [] }
      let entries: [string, unknown][] = []
      // for...in walks the object lazily, a slice at a time, across the pauses.
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue
        entries.push([key, (value as Record<string, unknown>)[key]])
        if (entries.length === SLICE_ENTRIES) {
          yield { kind: 'entries', field, entries }
          entries = []
        }
      }
      if (entries.length > 0) yield { kind: 'entries', field, entries }
    } else {
      yield { kind: 'value', field, value }
    }
  }
}
