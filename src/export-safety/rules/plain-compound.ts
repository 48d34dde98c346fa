/**
 * The compound of a `data merge` as editors write it, matched where it sits in the document, as
 * the document spells it (JSON escapes undecoded): one native match per command instead of a
 * decoded string and a parse, for the bulk of every export. The pattern is built from the key
 * types of `vocabulary.json`: only keys whose type a pattern can hold exactly (numbers without a
 * range but the int's, booleans, enums, ids, lists and compounds of them), written without empty
 * members or typed arrays, unquoted member names. So it accepts a subset of what the full check
 * accepts and never what it refuses; anything else goes to the full check.
 */
import {
  KEY_TYPES,
  acceptsShape,
  type Shape,
  type ValueType,
  PART_KEYS,
  type PartType,
} from '../types/index.js'

/** An unquoted member name. */
const NAME = /^[0-9A-Za-z_\-.+]+$/

/**
 * A quoted string of `body`, as a JSON string spells a double-quoted one (`\"...\"`), or in
 * single quotes. The bodies used here hold neither quotes, backslashes nor brackets.
 */
function quoted(body: string): string {
  return `(?:\\\\"${body}\\\\"|'${body}')`
}

/** `open`, then zero or more `item`s separated by commas, then `close`; spaces around them. */
function sequence(open: string, item: string, close: string): string {
  return `\\${open} *(?:${item}(?: *, *${item})* *)?\\${close}`
}

const INT_WORD = '-?(?:0|[1-9][0-9]{0,8})'
const FLOAT_WORD = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?'
/** After a word: no other word character (the pattern must take the whole word). */
const WORD_END = '(?![0-9A-Za-z_\\-.+])'

const SHAPES: readonly Shape[] = ['compound', 'list', 'array', 'quoted', 'word']

/**
 * Whether a string type's pattern matches only characters that need no escape and hold no
 * bracket (an id: classes of `a-z 0-9 _ . - /`, then `:` and quantifiers outside them).
 */
function isPlainPattern(source: string): boolean {
  return /^[a-z0-9_:()?+*]*$/.test(source.replace(/\[[a-z0-9_./-]+\]/g, ''))
}

/** The pattern of a value of `type`, or null when no pattern holds it exactly. */
function valuePattern(type: ValueType, depth = 0): string | null {
  if (depth > 4) return null
  switch (type.kind) {
    case 'number': {
      if (type.min !== null || type.max !== null) return null
      // The empty suffix last: tried first, it would fail at the word's end of every `0.5f`.
      const suffixes = [...type.suffixes]
        .filter((suffix) => /^[fFdD]?$/.test(suffix))
        .sort((a, b) => Number(a === '') - Number(b === ''))
      const exponent = suffixes.filter((suffix) => suffix !== '').join('|')
      if (!type.integer) {
        return `${FLOAT_WORD}(?:[eE][-+]?[0-9]+(?:${exponent})|(?:${suffixes.join('|')}))${WORD_END}`
      }
      return type.suffixes.has('') ? `${INT_WORD}${WORD_END}` : null
    }
    case 'boolean':
      return `(?:true|false|[01][bB])${WORD_END}`
    case 'enum': {
      const words = [...type.values].join('|')
      return `(?:(?:${words})${WORD_END}|${quoted(`(?:${words})`)})`
    }
    case 'string': {
      if (type.placeholder || type.pattern === null) return null
      const body = type.pattern.source.slice(4, -2)
      return isPlainPattern(body) ? quoted(body) : null
    }
    case 'list': {
      const item = valuePattern(type.of, depth + 1)
      if (item === null) return null
      if (type.length === null) return sequence('[', item, ']')
      if (type.length === 0) return '\\[ *\\]'
      return `\\[ *${item}(?: *, *${item}){${type.length - 1}} *\\]`
    }
    case 'compound': {
      const members: string[] = []
      for (const [name, memberType] of type.members) {
        const value = valuePattern(memberType, depth + 1)
        if (value !== null && NAME.test(name) && type.namespace === null) {
          members.push(`${name} *: *${value}`)
        }
      }
      return members.length === 0 ? null : sequence('{', `(?:${members.join('|')})`, '}')
    }
    case 'oneOf': {
      // Two alternatives of one shape: `pick` takes the first, a pattern would take either.
      const shapes = SHAPES.map((shape) => type.of.filter((t) => acceptsShape(t, shape)).length)
      if (shapes.some((count) => count > 1)) return null
      const alternatives = type.of.map((alternative) => valuePattern(alternative, depth + 1))
      const known = alternatives.filter((alternative) => alternative !== null)
      return known.length === 0 ? null : `(?:${known.join('|')})`
    }
    default:
      return null
  }
}

/**
 * The keys that frames set on every part, tried first: the alternatives of a compound's member
 * exclude each other (distinct names, each followed by ` *:`), so their order changes what is
 * matched in no way, only how many are tried first.
 */
const FREQUENT_KEYS = ['transformation', 'interpolation_duration', 'start_interpolation']

function byFrequency(a: string, b: string): number {
  const rank = (key: string) => {
    const at = FREQUENT_KEYS.indexOf(key)
    return at < 0 ? FREQUENT_KEYS.length : at
  }
  return rank(a) - rank(b)
}

/** For each part type, its compound: that type's keys whose type has a pattern (sticky). */
export const PLAIN_COMPOUND = Object.fromEntries(
  Object.entries(PART_KEYS).map(([type, keys]) => {
    const members: string[] = []
    for (const key of [...keys].sort(byFrequency)) {
      const keyType = KEY_TYPES.get(key)
      const value = keyType === undefined ? null : valuePattern(keyType)
      if (value !== null) members.push(`${key} *: *${value}`)
    }
    return [type, new RegExp(sequence('{', `(?:${members.join('|')})`, '}'), 'y')]
  }),
) as Record<PartType, RegExp>
