/**
 * Which engine substitutes the tag into a stored export, chosen from what publishing recorded.
 * Publishing validated the document and counted its placeholders; when every one is written raw
 * (16 bytes each), the splicer finds them all without following the JSON structure. An export
 * with a placeholder spelled with `\uHHHH` escapes goes through the tag walker, which does.
 */
import { PlaceholderSplicer } from './splicer'
import type { ExportMetadata } from './store'
import { PLACEHOLDER, TagWalker } from './walker'

/** Bytes in, bytes out; `replaced` counts the placeholders substituted so far. */
export interface Substitution {
  push(chunk: Uint8Array): Uint8Array
  /** Ends the document; returns its last bytes (throws if the engine finds it incomplete). */
  finish(): Uint8Array
  readonly replaced: number
}

/**
 * The engine for a stored export and a sanitized `tag`. Pushed chunks are written over, so they
 * must belong to the caller (as chunks read from a stream do). With `reuseOutput`, each output
 * is valid only until the next push (for a pump that awaits each write).
 */
export function substitutionFor(
  metadata: Pick<ExportMetadata, 'placeholders' | 'placeholderBytes'>,
  tag: string,
  reuseOutput = false,
): Substitution {
  const allRaw = metadata.placeholderBytes === metadata.placeholders * PLACEHOLDER.length
  const options = { reuseInput: true, reuseOutput }
  return allRaw ? new PlaceholderSplicer(tag, options) : new TagWalker(tag, options)
}
