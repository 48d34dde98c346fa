/**
 * The JSON splicer: replaces every `[MODELSERVERTAG]` placeholder in the strings of a JSON document
 * with a tag, streaming bytes in and bytes out, finding them with the JSON scanner, so that a
 * placeholder spelled with `\uHHHH` escapes is found too. Pure: it knows nothing of HTTP or
 * storage.
 *
 * Every byte that is not part of a placeholder goes out unchanged. Memory does not grow with the
 * document: at the end of a chunk only an escape or placeholder cut in two is held back (at most
 * 95 bytes: sixteen 6-byte escapes less one byte), never the document.
 */
import { FinderSubstitution, type PlaceholderFinder } from './finder-substitution'
import { JsonScanner, MalformedExportError } from '../json'
import type { SubstitutionOptions } from './spans'

const EMPTY = new Uint8Array(0)

/** The JSON-aware finder: follows the document's structure to find escaped spellings too. */
class JsonFinder implements PlaceholderFinder {
  private readonly scanner = new JsonScanner()

  get placeholders(): number {
    return this.scanner.placeholders
  }

  find(buf: Uint8Array, found: number[]): number {
    return this.scanner.scan(buf, found)
  }

  /** Throws `MalformedExportError` unless the document was whole. Returns no bytes. */
  finish(held: Uint8Array | null): Uint8Array {
    // Held bytes are always inside a string, so input ending there is cut short.
    if (held) throw new MalformedExportError('unexpected-end', this.scanner.position + held.length)
    this.scanner.finish()
    return EMPTY
  }
}

/** Incremental substitution with the JSON-aware finder: `push` chunks, then `finish` once. */
export class JsonSplicer extends FinderSubstitution {
  constructor(tag: string, options: SubstitutionOptions = {}) {
    super(tag, new JsonFinder(), options)
  }
}
