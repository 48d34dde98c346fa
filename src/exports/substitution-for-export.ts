/**
 * The substitution a stored export needs, chosen from what publishing recorded: the JSON splicer
 * only when some placeholder is spelled with escapes (`placeholderBytes` then exceeds 16 bytes a
 * placeholder), else the placeholder splicer.
 */
import { PLACEHOLDER, substitution, type Substitution } from '../substitution'
import type { PlaceholderCount } from '../storage'

/** Options of `substitutionFor`. */
export interface SubstitutionOptions {
  /** Each output is valid only until the next push (for a pump that awaits each write). */
  reuseOutput?: boolean
}

/**
 * The engine for a stored export and a sanitized `tag`. Pushed chunks are written over, so they
 * must belong to the caller (as chunks read from a stream do).
 */
export function substitutionFor(
  metadata: PlaceholderCount,
  tag: string,
  { reuseOutput = false }: SubstitutionOptions = {},
): Substitution {
  const escapedPlaceholders =
    metadata.placeholderBytes !== metadata.placeholders * PLACEHOLDER.length
  return substitution(tag, { escapedPlaceholders, reuseInput: true, reuseOutput })
}
