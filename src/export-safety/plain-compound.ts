/**
 * The compound of a `data merge` as editors write it, matched where it sits in the document, as
 * the document spells it (JSON escapes undecoded): one native match per command instead of a
 * decoded string and a parse, for the bulk of every export. It accepts a subset of what
 * `snbt.ts` parses (no empty members, no typed arrays, unquoted member names, nesting to
 * `NESTED_LEVELS`), with only the part type's keys at the top, and so never accepts what the
 * full check would refuse; anything else goes to the full check.
 */
import { PART_KEYS, WORLD_READING_KINDS, type PartType } from './vocabulary.js'

/** Compounds and lists nested inside the top compound that a match follows. */
const NESTED_LEVELS = 3

/** An unquoted word (`snbt.ts`'s `isWordUnit`). */
const WORD = String.raw`[0-9A-Za-z_\-.+]+`

/**
 * A quoted string with neither escapes, control characters nor brackets (so neither JSON text
 * nor most of what a plugin's reader keys on, `READER_MARKERS`; see `PLAIN_MARKER`), as a JSON
 * string spells it (`\"...\"`), or in single quotes.
 */
const QUOTED = String.raw`(?:\\"[^"'\\\x00-\x1f\x7f{}[\]]*\\"|'[^"'\\\x00-\x1f\x7f{}[\]]*')`

/**
 * What a matched compound must not hold to be accepted here, or it goes to the full check: what
 * else a reader keys on (`READER_MARKERS` without a bracket), and a member named as a text
 * component that reads the world (`selector`, `nbt`, `score`), which a text or an item's name may
 * hold as SNBT.
 */
export const PLAIN_MARKER = new RegExp(
  `[Pp]assengers:|[{,] *(?:${WORLD_READING_KINDS.join('|')}) *:`,
)

/** `open`, then zero or more `item`s separated by commas, then `close`; spaces around them. */
function sequence(open: string, item: string, close: string): string {
  return `\\${open} *(?:${item}(?: *, *${item})* *)?\\${close}`
}

/** A value with compounds and lists nested at most `levels` deep. */
function value(levels: number): string {
  if (levels === 0) return `(?:${WORD}|${QUOTED})`
  const inner = value(levels - 1)
  const list = sequence('[', inner, ']')
  const compound = sequence('{', `${WORD} *: *${inner}`, '}')
  return `(?:${WORD}|${QUOTED}|${list}|${compound})`
}

/** For each part type, its compound: that type's keys, values as `value` allows (sticky). */
export const PLAIN_COMPOUND = Object.fromEntries(
  Object.entries(PART_KEYS).map(([type, keys]) => {
    const member = `(?:${[...keys].join('|')}) *: *${value(NESTED_LEVELS)}`
    return [type, new RegExp(sequence('{', member, '}'), 'y')]
  }),
) as Record<PartType, RegExp>
