import { concatBytes, substitution } from '../../src/substitution'
import { JsonScanner } from '../../src/json/index'
import type { PlaceholderCount } from '../../src/storage'
import type { Substitution } from '../../src/substitution'

/** Concatenation of byte arrays. */
export const concat = concatBytes

/** The whole output of the splicer for `escapedPlaceholders`, for `chunks` pushed one by one. */
function splicer(escapedPlaceholders: boolean) {
  return (chunks: Uint8Array[], tag = 'bde', reuseInput = false, reuseOutput = false): Uint8Array =>
    run(substitution(tag, { escapedPlaceholders, reuseInput, reuseOutput }), chunks, reuseOutput)
}

/**
 * The JSON splicer's whole output for `chunks`, pushed one by one. With `reuseOutput` each output is
 * copied before the next push, as a pump is done with it by then.
 */
export const spliceJson = splicer(true)

/** The splicer's whole output for `chunks`, pushed one by one, as `spliceJson`. */
export const splice = splicer(false)

function run(engine: Substitution, chunks: Uint8Array[], copy: boolean): Uint8Array {
  const out = chunks.map((chunk) => (copy ? engine.push(chunk).slice() : engine.push(chunk)))
  out.push(engine.finish())
  return concat(out)
}

/** The placeholders of a whole JSON document (any root), as the strict scan counts them. */
export function countPlaceholders(doc: Uint8Array): PlaceholderCount {
  const scanner = new JsonScanner({ grammar: 'strict' })
  scanner.scanWhole(doc)
  return { placeholders: scanner.placeholders, placeholderBytes: scanner.placeholderBytes }
}
