import { concatBytes } from '../src/bytes'
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
