/**
 * The substitution engine: bytes in, bytes out, the tag in place of every `[MODELSERVERTAG]`.
 * Pure: it knows nothing of HTTP, storage or Durable Objects (dependency-cruiser checks it).
 *
 * One substitution, two finders. When every placeholder is written raw (16 bytes each), the
 * placeholder splicer finds them all without following the JSON structure; a document with a
 * placeholder spelled with `\uHHHH` escapes goes through the JSON splicer, which follows it. Which
 * one a stored export needs is the caller's to say (src/exports/ reads it from what publishing
 * recorded). The byte helper `concatBytes` is the read path's too.
 */
import { PlaceholderSplicer } from './splicer'
import type { SubstitutionOptions } from './spans'
import { JsonSplicer } from './json-splicer'

export { MalformedExportError, PLACEHOLDER } from '../json'
export { concatBytes } from './bytes'
export type { SubstitutionOptions } from './spans'

/** Bytes in, bytes out; `replaced` counts the placeholders substituted so far. */
export interface Substitution {
  push(chunk: Uint8Array): Uint8Array
  /** Ends the document; returns its last bytes (throws if the engine finds it incomplete). */
  finish(): Uint8Array
  readonly replaced: number
}

/** Options of `substitution`: the finder, and how the output may use memory. */
export interface SubstituteOptions extends SubstitutionOptions {
  /**
   * Some placeholder may be spelled with `\uHHHH` escapes: find them by following the JSON
   * structure (the JSON splicer) instead of matching the 16 raw bytes (the placeholder splicer).
   */
  escapedPlaceholders: boolean
}

/**
 * The engine for a sanitized `tag`. With `reuseInput`, pushed chunks are written over, so they
 * must belong to the caller (as chunks read from a stream do). With `reuseOutput`, each output
 * is valid only until the next push (for a pump that awaits each write).
 */
export function substitution(tag: string, options: SubstituteOptions): Substitution {
  const { escapedPlaceholders, ...memory } = options
  return escapedPlaceholders ? new JsonSplicer(tag, memory) : new PlaceholderSplicer(tag, memory)
}
