/**
 * The display-model vocabulary: what an export may ask a server to run. An export is a display
 * model (display entities, the commands that move them, the sounds they play), and anything a
 * server would run that is not part of one is refused (docs/export-safety.md). Pure: bytes or
 * text in, a verdict out, JSON bytes read with the service's one JSON reader (src/json/, in the
 * publish validator's own pass at publish: `startExportCheck`); the publish path, the
 * TypeScript client and the tests all use it.
 * Relative imports end in `.js`, as the client's do, since the client re-exports this room.
 */
import { MalformedExportError } from '../json/index.js'
import type { UnsafeExport } from './types/index.js'
import { findUnsafeExport } from './walk/index.js'

export {
  UNSAFE_REASONS,
  MAX_SNBT_DEPTH,
  type UnsafeExport,
  type UnsafeReason,
} from './types/index.js'
/** SNBT read whole by the check's own parser, into its tree or what the reader's builder builds. */
export { readSnbtTree, type SnbtBuilder } from './syntax/index.js'
export { findUnsafeExport, startExportCheck, type ExportCheckPass } from './walk/index.js'

/** The verdict of `checkExportSafety`. */
export type ExportSafety = { safe: true } | ({ safe: false } & UnsafeExport)

/** How `checkExportSafety` reads an export. */
export interface ExportSafetyOptions {
  /**
   * The tag the export was fetched with (`GET /server-api?...&tag=bde`): every selector's tag
   * must begin with it. Absent: read from the export itself: the published form when a part's
   * tag begins with `[MODELSERVERTAG]`, else a fetched form of any tag, whose selectors must name
   * tags its own parts carry (docs/export-safety.md, "Published and fetched").
   */
  tag?: string
}

/**
 * Checks an export against the display-model vocabulary, as published (with placeholders) or as
 * fetched (tags substituted, with any tag; give `{ tag }` when you know it): its JSON text or UTF-8
 * bytes, or an object already parsed. Throws `SyntaxError` when text or bytes are not JSON, as
 * `JSON.parse` does (bytes that start with a byte-order mark are not: U+FEFF is no JSON
 * whitespace), and `RangeError` on an empty `tag`. Given text or bytes, it reads names and
 * strings as `JSON.parse` does; an object has no repeated members left.
 */
export function checkExportSafety(
  json: string | Uint8Array | ArrayBuffer | object,
  options: ExportSafetyOptions = {},
): ExportSafety {
  const tag = options.tag ?? null
  if (tag === '') throw new RangeError('The tag an export was fetched with is never empty.')
  let unsafe: UnsafeExport | null
  try {
    // The check's pass reads with the strict grammar: it accepts what `JSON.parse` accepts.
    unsafe = findUnsafeExport(toBytes(json), tag)
  } catch (error) {
    if (error instanceof MalformedExportError) throw new SyntaxError(error.message)
    throw error
  }
  return unsafe === null ? { safe: true } : { safe: false, ...unsafe }
}

function toBytes(json: string | Uint8Array | ArrayBuffer | object): Uint8Array {
  if (typeof json === 'string') return new TextEncoder().encode(json)
  if (json instanceof Uint8Array) return json
  if (json instanceof ArrayBuffer) return new Uint8Array(json)
  return new TextEncoder().encode(JSON.stringify(json))
}
