/**
 * An export as a plugin fetches it: the tag in place of every `[MODELSERVERTAG]`, by the
 * product's own substitution (src/substitution/, the engine `GET /server-api` runs), the JSON splicer
 * that also finds placeholders spelled with `\uHHHH` escapes.
 */
import { substitution } from '../../src/substitution'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** `json` (a published export) fetched with `tag` (sanitized: `[A-Za-z0-9_-]`, 1 to 100 characters). */
export function fetchedForm(json: string, tag: string): string {
  const engine = substitution(tag, { escapedPlaceholders: true })
  const head = engine.push(encoder.encode(json))
  return decoder.decode(head, { stream: true }) + decoder.decode(engine.finish())
}
