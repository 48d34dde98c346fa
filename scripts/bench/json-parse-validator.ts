/**
 * Bench-only: the publish validation this project had before the one-pass scanner, kept as the
 * baseline of the `memory` section's publish rows (memory-workerd.mjs swaps it in for
 * src/publish/validate.ts when it builds the `previous` Worker). It decodes the body to one
 * string and `JSON.parse`s it into an object tree, after a separate nesting scan, and counts the
 * placeholders in a third pass (the structure scan of the tag walker).
 */
import { JsonScanner } from '../../src/json/scanner'
import { KV_MAX_VALUE_BYTES, type PlaceholderCount } from '../../src/storage/export-store'
import { ServiceFailure } from '../../src/http/errors'
import { MAX_NESTING_DEPTH } from '../../src/contract/wire'

/** Throws `too_large`, `invalid_json` or `invalid_export`; returns the placeholders. */
export function validateExport(document: Uint8Array): PlaceholderCount {
  if (document.byteLength > KV_MAX_VALUE_BYTES) {
    throw new ServiceFailure({ reason: 'too_large', limitBytes: KV_MAX_VALUE_BYTES })
  }
  if (nestingDepthExceeds(document, MAX_NESTING_DEPTH)) {
    throw new ServiceFailure({ reason: 'invalid_export', detail: 'too deep' })
  }
  let parsed: unknown
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(document)
    parsed = JSON.parse(text)
  } catch {
    throw new ServiceFailure({ reason: 'invalid_json', detail: 'not JSON' })
  }
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  if (!isObject(parsed) || !isObject(parsed.content)) {
    throw new ServiceFailure({ reason: 'invalid_export', detail: 'not {"content": {...}}' })
  }
  const scanner = new JsonScanner()
  scanner.scanWhole(document)
  return { placeholders: scanner.placeholders, placeholderBytes: scanner.placeholderBytes }
}

function nestingDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!
    if (inString) {
      if (byte === 0x5c) i++
      else if (byte === 0x22) inString = false
    } else if (byte === 0x22) {
      inString = true
    } else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > limit) return true
    } else if (byte === 0x7d || byte === 0x5d) {
      depth--
    }
  }
  return false
}
