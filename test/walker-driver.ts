import { concatBytes } from '../src/bytes'
import { JsonScanner } from '../src/exports/json-scanner'
import type { PlaceholderCount } from '../src/exports/store'
import { TagWalker } from '../src/exports/walker'
import { PlaceholderSplicer } from '../src/exports/splicer'

/** Concatenation of byte arrays. */
export const concat = concatBytes

/** The walker's whole output for `chunks`, pushed one by one. */
export function walk(chunks: Uint8Array[], tag = 'bde', reuseInput = false): Uint8Array {
  const walker = new TagWalker(tag, { reuseInput })
  const out = chunks.map((chunk) => walker.push(chunk))
  out.push(walker.finish())
  return concat(out)
}

/** The splicer's whole output for `chunks`, pushed one by one. */
export function splice(chunks: Uint8Array[], tag = 'bde', reuseInput = false): Uint8Array {
  const splicer = new PlaceholderSplicer(tag, { reuseInput })
  const out = chunks.map((chunk) => splicer.push(chunk))
  out.push(splicer.finish())
  return concat(out)
}

/** The placeholders of a whole JSON document (any root), as the strict scan counts them. */
export function countPlaceholders(doc: Uint8Array): PlaceholderCount {
  const scanner = new JsonScanner({ grammar: 'strict' })
  scanner.scanWhole(doc)
  return { placeholders: scanner.placeholders, placeholderBytes: scanner.placeholderBytes }
}
