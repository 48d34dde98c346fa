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
      // Object.keys at once: a for...in over a million keys took 0.6 s before its first step.
      const keys = Object.keys(value)
      const record = value as Record<string, unknown>
      for (let at = 0; at < keys.length; at += SLICE_ENTRIES) {
        const entries = keys
          .slice(at, at + SLICE_ENTRIES)
          .map((key): [string, unknown] => [key, record[key]])
        yield { kind: 'entries', field, entries }
      }
    } else {
      yield { kind: 'value', field, value }
    }
  }
}
