/**
 * The client's `checkExportSafety`: the display-model check (src/export-safety/), refusing with a
 * `TypeError` what is not an export document at all. The likeliest such value is `content`, what
 * `getExport` returns, where the check wants the whole document `{content}`: the check alone
 * would read its members as the document's and answer `safe: false` for a `member` at `datapack`,
 * a verdict about the export that sends its reader to the wrong place.
 */
import {
  checkExportSafety as checkDocument,
  type ExportSafety,
  type ExportSafetyOptions,
} from '../export-safety/index.js'

/**
 * Checks an export against the display-model vocabulary, as published (with placeholders) or as
 * fetched (tags substituted, with any tag; give `{ tag }` when you know it): its JSON text or
 * UTF-8 bytes, or an object already parsed, always the whole document `{"content": {...}}`.
 * Throws `TypeError` for a document without `content` whose other members the check refuses
 * (given `result.content` of `getExport`, pass `{ content: result.content }`), `SyntaxError` when
 * text or bytes are not JSON, as `JSON.parse` does, and `RangeError` on an empty `tag`.
 */
export function checkExportSafety(
  json: string | Uint8Array | ArrayBuffer | object,
  options: ExportSafetyOptions = {},
): ExportSafety {
  const verdict = checkDocument(json, options)
  if (!verdict.safe && verdict.reason === 'member' && lacksContent(json)) {
    throw new TypeError(
      `checkExportSafety takes the whole export document, {"content": {...}}, as the service serves it; this one has no "content" member, and "${verdict.found}" at its root. Given what getExport returns as content, pass { content } instead.`,
    )
  }
  return verdict
}

/** Whether the root is an object without a `content` member (only ever asked of a refusal). */
function lacksContent(json: string | Uint8Array | ArrayBuffer | object): boolean {
  const root = typeof json === 'string' || isBytes(json) ? parsed(json) : json
  return typeof root === 'object' && root !== null && !Object.hasOwn(root, 'content')
}

function isBytes(json: object): json is Uint8Array | ArrayBuffer {
  return json instanceof Uint8Array || json instanceof ArrayBuffer
}

/** Text or bytes the check has read as JSON already. */
function parsed(json: string | Uint8Array | ArrayBuffer): unknown {
  return JSON.parse(typeof json === 'string' ? json : new TextDecoder().decode(json))
}
