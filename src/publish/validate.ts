/**
 * What a document must be to be published: at most KV's value limit, UTF-8 JSON nested at most
 * `MAX_NESTING_DEPTH` levels, an object whose `content` is an object (spec 2). Nothing else is
 * checked: `content.project_id` is a string in real exports and absent in unsaved ones, and the
 * rest is the editor's business. The bytes are stored as received, so they are what is checked.
 */
import { KV_MAX_VALUE_BYTES } from '../exports/store'
import { ServiceFailure } from '../http/errors'

/**
 * Deepest nesting of arrays and objects accepted. Real exports nest under 10 levels (their
 * SNBT sits inside strings); the limit keeps the parser and the tag walker far from any stack
 * limit, so 100,000 levels are a 400 and never a crash.
 */
export const MAX_NESTING_DEPTH = 256

const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Throws `too_large`, `invalid_json` or `invalid_export` unless the bytes are a publishable export. */
export function validateExport(document: Uint8Array): void {
  if (document.byteLength > KV_MAX_VALUE_BYTES) {
    throw new ServiceFailure({ reason: 'too_large', limitBytes: KV_MAX_VALUE_BYTES })
  }
  if (document.byteLength === 0) {
    throw new ServiceFailure({ reason: 'invalid_json', detail: 'the body is empty.' })
  }
  if (nestingDepthExceeds(document, MAX_NESTING_DEPTH)) {
    throw new ServiceFailure({
      reason: 'invalid_export',
      detail: `The export nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels.`,
    })
  }
  const parsed = parseJson(document)
  if (!isPlainObject(parsed)) {
    throw new ServiceFailure({
      reason: 'invalid_export',
      detail: 'The export must be a JSON object of the form {"content": {...}}.',
    })
  }
  if (!isPlainObject(parsed.content)) {
    throw new ServiceFailure({
      reason: 'invalid_export',
      detail: `The field "content" must be an object, got ${describe(parsed.content)}.`,
    })
  }
}

function parseJson(document: Uint8Array): unknown {
  let text: string
  try {
    // ignoreBOM keeps a byte-order mark in the text, so JSON.parse refuses what KV would store.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(document)
  } catch {
    throw new ServiceFailure({ reason: 'invalid_json', detail: 'the body is not valid UTF-8.' })
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    // workerd's JSON.parse may throw RangeError (stack) instead of SyntaxError on odd input.
    const detail = error instanceof SyntaxError ? error.message : 'it cannot be parsed.'
    throw new ServiceFailure({ reason: 'invalid_json', detail })
  }
}

/** Whether brackets and braces outside strings nest deeper than `limit`; stops at the first excess. */
function nestingDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) {
      inString = true
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--
    }
  }
  return false
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)'
  if (value === null) return 'null'
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}
