/**
 * What a document must be to be published: at most KV's value limit, UTF-8 JSON (no byte-order
 * mark) nested at most `MAX_NESTING_DEPTH` levels, an object whose `content` is an object (spec
 * 2). Nothing else is checked: `content.project_id` is a string in real exports and absent in
 * unsaved ones, and the rest is the editor's business. The bytes are stored as received, so
 * they are what is checked.
 *
 * One pass of the JSON scanner (strict grammar) over the bytes decides all of it and counts the
 * placeholders for the metadata, building no string and no object tree: memory stays the body
 * itself plus a bit per nesting level, whatever the document's shape. The display-model check
 * reads in the same pass, as an observer alongside. The verdict is the one
 * `JSON.parse` of the decoded text and the `content` rule would give
 * (test/publish/validate-properties.test.ts holds the two side by side).
 */
import {
  escapedUnit,
  JsonScanner,
  MalformedExportError,
  type JsonKind,
  type JsonObserver,
} from '../json'
import type { PlaceholderCount } from '../storage'
import { ServiceFailure } from '../http'
import { MAX_EXPORT_BYTES, MAX_NESTING_DEPTH } from '../contract/wire'

/** The member of the root object that must hold an object (docs/api.md#the-body). */
const CONTENT = 'content'

/**
 * Throws `too_large`, `invalid_json` or `invalid_export` unless the bytes are a publishable
 * export; returns its placeholders, as the metadata records them. `alongside`: an observer that
 * reads the document in the same pass (the display-model check's, `startExportCheck`); it must
 * watch a root object, and is told nothing when the bytes are too large or empty.
 */
export function validateExport(
  document: Uint8Array,
  alongside: JsonObserver | null = null,
): PlaceholderCount {
  if (document.byteLength > MAX_EXPORT_BYTES) {
    throw new ServiceFailure({ reason: 'too_large', limitBytes: MAX_EXPORT_BYTES })
  }
  if (document.byteLength === 0) {
    throw new ServiceFailure({ reason: 'invalid_json', detail: 'the body is empty.' })
  }
  if (document[0] === 0xef && document[1] === 0xbb && document[2] === 0xbf) {
    const detail = 'the body starts with a byte-order mark (EF BB BF), which JSON does not allow.'
    throw new ServiceFailure({ reason: 'invalid_json', detail })
  }
  const shape = new TopLevelShape(document, alongside)
  const scanner = new JsonScanner({
    grammar: 'strict',
    maxDepth: MAX_NESTING_DEPTH,
    observer: shape,
  })
  try {
    scanner.scanWhole(document)
  } catch (error) {
    if (!(error instanceof MalformedExportError)) throw error
    const at = `(at byte ${error.offset})`
    if (error.reason === 'too-deep') {
      const detail = `The export nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels ${at}.`
      throw new ServiceFailure({ reason: 'invalid_export', detail })
    }
    throw new ServiceFailure({ reason: 'invalid_json', detail: `${error.detail} ${at}.` })
  }
  shape.check()
  return { placeholders: scanner.placeholders, placeholderBytes: scanner.placeholderBytes }
}

/**
 * What the scan saw of the root value and of the root object's `content` member; it passes
 * every report on to the observer alongside, which watches what it asks for beyond the root's
 * members.
 */
class TopLevelShape implements JsonObserver {
  private rootKind: JsonKind | null = null
  /** The last `content` member, as `JSON.parse` keeps the last of repeated names. */
  private content: { kind: JsonKind; offset: number } | null = null
  /** Whether the observer alongside watches the root (then it is told all that follows). */
  private alongsideWatches = false
  /** Containers watched and open (1: inside the root), and whether a watched string is open. */
  private depth = 0
  private inString = false

  constructor(
    private readonly document: Uint8Array,
    private readonly alongside: JsonObserver | null,
  ) {}

  root(kind: JsonKind, offset: number): boolean {
    this.rootKind = kind
    this.alongsideWatches = this.alongside?.root(kind, offset) ?? false
    return this.watched(kind, kind === 'object' || this.alongsideWatches)
  }

  member(nameStart: number, nameEnd: number, kind: JsonKind, offset: number): boolean {
    if (this.depth === 1 && isName(this.document, nameStart, nameEnd, CONTENT)) {
      this.content = { kind, offset }
    }
    const watch = this.alongsideWatches && this.alongside!.member(nameStart, nameEnd, kind, offset)
    return this.watched(kind, watch)
  }

  // Reached only inside values the observer alongside watches.
  element(kind: JsonKind, offset: number): boolean {
    return this.watched(kind, this.alongside!.element(kind, offset))
  }

  end(offset: number): void {
    if (this.inString) this.inString = false
    else this.depth--
    if (this.alongsideWatches) this.alongside!.end(offset)
  }

  /** Notes that a value of `kind` is watched, when `watch`; returns `watch`. */
  private watched(kind: JsonKind, watch: boolean): boolean {
    if (watch) {
      if (kind === 'string') this.inString = true
      else if (kind === 'object' || kind === 'array') this.depth++
    }
    return watch
  }

  /** Throws `invalid_export` unless the document was `{"content": {...}, ...}`. */
  check(): void {
    if (this.rootKind !== 'object') {
      throw new ServiceFailure({
        reason: 'invalid_export',
        detail: 'The export must be a JSON object of the form {"content": {...}}.',
      })
    }
    if (this.content?.kind !== 'object') {
      throw new ServiceFailure({
        reason: 'invalid_export',
        detail: `The field "content" must be an object, got ${describe(this.content)}.`,
      })
    }
  }
}

/**
 * Whether the JSON string at `[start, end)` (quotes included, already checked by the scan)
 * spells `name`, an ASCII word: each character raw or as a `\uHHHH` escape. Short escapes
 * (`\n`, `\"`, ...) write no letter.
 */
function isName(bytes: Uint8Array, start: number, end: number, name: string): boolean {
  const last = end - 1
  let i = start + 1
  for (let k = 0; k < name.length; k++) {
    if (i >= last) return false
    let unit = bytes[i]!
    if (unit === 0x5c) {
      if (bytes[i + 1] !== 0x75) return false
      unit = escapedUnit(bytes, i)
      i += 6
    } else {
      i++
    }
    if (unit !== name.charCodeAt(k)) return false
  }
  return i === last
}

function describe(found: { kind: JsonKind; offset: number } | null): string {
  if (found === null) return 'nothing (the field is missing)'
  const what =
    found.kind === 'null' ? 'null' : found.kind === 'array' ? 'an array' : `a ${found.kind}`
  return `${what} (at byte ${found.offset})`
}
