/**
 * What a plugin's own reader sees in a quoted string of SNBT: the readers cut entity data at
 * markers and count brackets blind to quotes (readers/), so a quoted string must read to them as
 * it reads to the game.
 */
import { UnsafeContent, READER_MARKERS } from '../types/index.js'

/**
 * Throws the `reader` refusal unless the raw text `[start, end)` of a quoted string (between its
 * quotes, escapes as written) reads the same to a plugin's own reader as to the game's grammar:
 * none of `READER_MARKERS` (what a reader takes for an entity's start, in that order), then its
 * brackets `{}` `[]` balanced and nested within it (a reader that counts brackets blind to quotes
 * sees the same structure). `found`: the marker, or the first bracket that does not fit (an
 * unclosed one: the innermost).
 */
export function checkReaderSafe(text: string, start: number, end: number): void {
  if (readsPlain(text, start, end)) return
  checkReaderMarkers(text, start, end)
  checkBrackets(text, start, end)
}

/** The markers part of `checkReaderSafe` alone: for a string known to balance its brackets. */
export function checkReaderMarkers(text: string, start: number, end: number): void {
  const raw = text.slice(start, end)
  for (const marker of READER_MARKERS) {
    if (raw.includes(marker)) throw new UnsafeContent('reader', marker)
  }
}

/** Per UTF-16 unit (`UNITS`): its bracket (1 `{`, 2 `[`, 3 `}`, 4 `]`), and a marker's start. */
const BRACKET = 7
const MARKER_START = 8

const UNITS = new Uint8Array(0x10000)
UNITS[0x7b] = 1
UNITS[0x5b] = 2
UNITS[0x7d] = 3
UNITS[0x5d] = 4

/** `READER_MARKERS` by their first unit. */
const MARKERS_AT: Array<string[] | undefined> = []
/**
 * The first two units of a marker, by their low bytes (`pairAt`): most brackets begin none, and
 * one lookup says so.
 */
const MARKER_PAIRS = new Uint8Array(0x10000)
for (const marker of READER_MARKERS) {
  const unit = marker.charCodeAt(0)
  UNITS[unit]! |= MARKER_START
  ;(MARKERS_AT[unit] ??= []).push(marker)
  const first = (unit & 0xff) << 8
  if (marker.length === 1) MARKER_PAIRS.fill(1, first, first + 0x100)
  else MARKER_PAIRS[first | (marker.charCodeAt(1) & 0xff)] = 1
}

/** The low bytes of the units at `at` and after it (past the end: 0), for `MARKER_PAIRS`. */
function pairAt(text: string, at: number): number {
  return ((text.charCodeAt(at) & 0xff) << 8) | (text.charCodeAt(at + 1) & 0xff)
}

/**
 * Whether `[start, end)` holds no marker and balances its brackets: one pass that copies nothing,
 * the answer for almost every string (a list of tags may hold thousands). A string it does not
 * answer for (or nested deeper than `DEEPEST`) is read again by the checks that name the fault.
 */
function readsPlain(text: string, start: number, end: number): boolean {
  // The open brackets as bits above a leading 1, innermost lowest: 1 for `{`, 0 for `[` (the low
  // bit of their codes, as of `}` and `]`).
  let open = 1
  for (let at = start; at < end; at++) {
    const unit = text.charCodeAt(at)
    const code = UNITS[unit]!
    if (code === 0) continue
    if (
      code >= MARKER_START &&
      MARKER_PAIRS[pairAt(text, at)] === 1 &&
      startsMarker(text, at, end, MARKERS_AT[unit]!)
    ) {
      return false
    }
    const bracket = code & BRACKET
    if (bracket === 0) continue
    if (bracket <= 2) {
      if (open >= DEEPEST) return false
      open = (open << 1) | (bracket & 1)
    } else {
      if (open === 1 || (open & 1) !== (bracket & 1)) return false
      open >>= 1
    }
  }
  return open === 1
}

/** The deepest nesting `readsPlain` follows in the bits of a small integer. */
const DEEPEST = 1 << 30

/** Whether one of `markers` (each begins with the unit at `at`) is written at `at` before `end`. */
function startsMarker(text: string, at: number, end: number, markers: string[]): boolean {
  const next = text.charCodeAt(at + 1)
  for (let k = 0; k < markers.length; k++) {
    const marker = markers[k]!
    if (marker.length > 1 && marker.charCodeAt(1) !== next) continue
    if (at + marker.length <= end && text.startsWith(marker, at)) return true
  }
  return false
}

/** The brackets part of `checkReaderSafe`: throws at the first that does not fit. */
function checkBrackets(text: string, start: number, end: number): void {
  let depth = 0
  for (let at = start; at < end; at++) {
    const bracket = UNITS[text.charCodeAt(at)]! & BRACKET
    if (bracket === 0) continue
    if (bracket <= 2) {
      if (depth === OPEN.length) OPEN = grown(OPEN)
      OPEN[depth++] = bracket
    } else if (depth === 0 || OPEN[--depth] !== bracket - 2) {
      throw new UnsafeContent('reader', bracket === 3 ? '}' : ']')
    }
  }
  if (depth > 0) throw new UnsafeContent('reader', OPEN[depth - 1] === 1 ? '{' : '[')
}

/** The brackets open in the string being read, innermost last (1 `{`, 2 `[`); one at a time. */
let OPEN: Uint8Array = new Uint8Array(64)

function grown(stack: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(stack.length * 2)
  bigger.set(stack)
  return bigger
}
