/**
 * The worker's side of the hand-off in slices (model-handoff.ts): the model's parts put back
 * together, in the shape modelPartsOf gave them.
 */
import type { ModelField, ModelQuestion } from './model-protocol.js'

/** The parts received so far. */
export type ModelParts = Record<ModelField, unknown>

/** No part received yet. */
export function emptyParts(): ModelParts {
  return { passengers: undefined, anim_keyframes: undefined, animations: undefined }
}

/** Adds a slice to `parts`. */
export function addSlice(
  parts: ModelParts,
  slice: Extract<ModelQuestion, { kind: 'items' | 'entries' | 'value' }>,
): void {
  if (slice.kind === 'value') {
    parts[slice.field] = slice.value
  } else if (slice.kind === 'items') {
    const list = Array.isArray(parts[slice.field]) ? (parts[slice.field] as unknown[]) : []
    for (const item of slice.items) list.push(item)
    parts[slice.field] = list
  } else {
    const found = parts[slice.field]
    const object =
      found !== null && typeof found === 'object' && !Array.isArray(found)
        ? (found as Record<string, unknown>)
        : (Object.create(null) as Record<string, unknown>)
    for (const [key, value] of slice.entries) object[key] = value
    parts[slice.field] = object
  }
}

/** The parts as readModel reads them (an export's content, cut to its model). */
export function contentOf(parts: ModelParts): unknown {
  return {
    passengers: parts.passengers,
    datapack: { anim_keyframes: parts.anim_keyframes },
    meta: { animations: parts.animations },
  }
}
