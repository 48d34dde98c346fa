/**
 * The commands that animate a model, one per string:
 * - `data merge entity <selector> <compound>`: the selector an `@e[...]` with a `type=` of a
 *   part's type and `tag=`s the model's own parts carry (`distance`, `limit`, `sort` may stand
 *   beside them), the compound that type's keys;
 * - `playsound <sound> <source> <@a or @a[...]> <x> <y> <z> [volume [pitch [minVolume]]]`;
 * - in a hitbox only: `summon minecraft:interaction <x> <y> <z> [<compound>]`.
 * Arguments are separated by one space. Anything else is outside the vocabulary.
 */
import { checkPartData } from './entities.js'
import {
  UnsafeContent,
  HITBOX_TYPE,
  MAX_COMMAND_CHARS,
  PATTERNS,
  PLACEHOLDER,
  PLACEHOLDER_GROWTH,
  fetchedLength,
  SELECTOR_EXTRA_ARGUMENTS,
  SELECTOR_SORTS,
  SOUND_LIMITS,
  SOUND_SOURCES,
  partTypeOf,
  KEY_TYPES,
  type KeyTypes,
  type PartType,
} from '../types/index.js'
import { PLAIN_COMPOUND } from './plain-compound.js'
import { READER_NAMES, readsAsDisplayEntityUtils } from '../readers/index.js'
import { SelectorCache, sameBytes } from './selector-cache.js'
import { parseSnbtValue, unexpectedAt, type SnbtValue } from '../syntax/index.js'

/** Where a command sits: a frame (animation or sound keyframe, `commands`) or a hitbox. */
export type CommandPlace = 'frame' | 'hitbox'

const DATA_MERGE_ENTITY = 'data merge entity '
/** `DATA_MERGE_ENTITY`'s bytes, for `sameBytes`. */
const DATA_MERGE_BYTES = new DataView(new TextEncoder().encode(DATA_MERGE_ENTITY).buffer)

const NUMBER = PATTERNS.number
const COORDINATE = PATTERNS.coordinate
const SOUND_ID = PATTERNS.soundId
const DISTANCE = PATTERNS.distance
const LIMIT = PATTERNS.limit
const PLAYERS = PATTERNS.playsoundTargets
const HITBOX_COORDINATE = PATTERNS.hitboxCoordinate
const AXES = ['x', 'y', 'z'] as const

/**
 * The longest frame command the fast path takes, as spelled: no placeholder can bring one this
 * short over `MAX_COMMAND_CHARS` when fetched (`fetchedLength`).
 */
const PLAIN_MAX_CHARS = Math.floor(
  MAX_COMMAND_CHARS / (1 + PLACEHOLDER_GROWTH / PLACEHOLDER.length),
)

/**
 * Selector verdicts kept per export, at most, and their characters: a model targets a few
 * hundred parts with selectors of about 80 characters. What is kept is copied by every
 * collection, so long selectors fill the characters first (docs/performance.md).
 */
const MAX_KEPT_SELECTORS = 4096
const MAX_KEPT_SELECTOR_CHARS = 256 * 1024

/**
 * Throws `UnsafeContent` unless `text` holds no control character (U+0000-U+001F,
 * U+007F-U+009F): a line break would start a second command.
 */
export function checkOneLine(text: string): void {
  // One native search rather than a loop over every character of every command.
  const found = CONTROL.exec(text)
  if (found === null) return
  const unit = found[0].charCodeAt(0)
  throw new UnsafeContent('control', `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`)
}

/** A control character: U+0000-U+001F, U+007F-U+009F. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * The commands of one export. `ownTags` are the tags the model's parts carry, and a hitbox's
 * summon adds its own; `modelTag` what a selector's tag must begin with (the placeholder, or the
 * tag a fetched export was asked with), or null to read it from the parts' tags once every frame
 * may target them (`INFERRED_MODEL_TAG`). A selector's verdict is kept, since every frame targets
 * the same parts.
 */
export class CommandCheck {
  private readonly ownTags: Set<string>
  private modelTag: string | null
  /** The key types of the export's declared version, for the compounds its commands write. */
  private readonly keyTypes: KeyTypes
  private readonly selectorTypes = new SelectorCache<PartType>(
    MAX_KEPT_SELECTORS,
    MAX_KEPT_SELECTOR_CHARS,
  )

  /** `keyTypes`: as the export's declared version reads them; the default version's when absent. */
  constructor(ownTags: Set<string>, modelTag: string | null, keyTypes: KeyTypes = KEY_TYPES) {
    this.ownTags = ownTags
    this.modelTag = modelTag
    this.keyTypes = keyTypes
  }

  /** Throws `UnsafeContent` unless `command` is in the vocabulary of `place`. */
  check(command: string, place: CommandPlace): void {
    // Counted as fetched with the longest tag, so that no tag brings it over the game's limit.
    const length = fetchedLength(command, MAX_COMMAND_CHARS)
    if (length > MAX_COMMAND_CHARS) {
      checkOneLine(command)
      throw new UnsafeContent('length', String(length))
    }
    checkOneLine(command)
    const words = new Words(command, this.keyTypes)
    const word = words.next()
    if (place === 'hitbox') {
      if (word !== 'summon') throw new UnsafeContent('command', word)
      checkHitboxSummon(words, this.ownTags)
    } else if (word === 'data') {
      this.dataMerge(words)
    } else if (word === 'playsound') {
      checkPlaysound(words)
    } else {
      throw new UnsafeContent('command', word)
    }
    if (!readsAsDisplayEntityUtils(command)) {
      throw new UnsafeContent('reader', READER_NAMES.displayEntityUtils, 'reader')
    }
  }

  /**
   * Whether the frame command at `[from, to)` of `text`, spelled as a JSON string spells it
   * (escapes undecoded), is a `data merge` in the compact form editors write that the vocabulary
   * allows. Never refuses: anything else, allowed or not, goes through `check`, which alone
   * names what it found. The form holds no control character: its selector is the model's own
   * (no backslash, so spelled as it reads), its compound words, brackets and plain strings.
   * `text` is ASCII, its characters the bytes of `document` from `shift` (the document's window
   * that `JsonStrings.asciiText` gives): the command's word and its selector are compared there,
   * four bytes at a time.
   */
  isPlainDataMerge(
    text: string,
    from: number,
    to: number,
    document: DataView,
    shift: number,
  ): boolean {
    // Long ones go to `check`, which counts their placeholders as fetched.
    if (to - from > PLAIN_MAX_CHARS || to - from < DATA_MERGE_ENTITY.length) return false
    if (!sameBytes(document, shift + from, DATA_MERGE_BYTES, 0, DATA_MERGE_ENTITY.length)) {
      return false
    }
    const selectorStart = from + DATA_MERGE_ENTITY.length
    const selectorEnd = text.indexOf(' ', selectorStart)
    if (selectorEnd < 0 || selectorEnd >= to) return false
    // Without a backslash the selector reads as written; with one, `check` decodes it.
    let type = this.selectorTypes.getBytes(document, shift + selectorStart, shift + selectorEnd)
    if (type === undefined) {
      const selector = text.slice(selectorStart, selectorEnd)
      if (selector.includes('\\')) return false
      const own = this.ownPartType(selector)
      if (own === null) return false
      this.selectorTypes.setBytes(document, shift + selectorStart, shift + selectorEnd, own)
      type = own
    }
    const compound = PLAIN_COMPOUND[type]
    compound.lastIndex = selectorEnd + 1
    return compound.test(text) && compound.lastIndex === to
  }

  /**
   * The part type a `data merge` selector not kept yet targets, or null when it is not the
   * model's own.
   */
  private ownPartType(selector: string): PartType | null {
    try {
      return checkOwnPartSelector(selector, this.ownTags, this.tagOfModel())
    } catch (error) {
      if (error instanceof UnsafeContent) return null
      throw error
    }
  }

  /**
   * What a selector's tag must begin with. Not given: the placeholder when a part's tag begins
   * with it (the published form), else nothing (a fetched form: every tag a selector names must
   * still be one the model's own parts carry). Read at the first selector, when the parts' and
   * hitboxes' tags are all collected.
   */
  private tagOfModel(): string {
    if (this.modelTag === null) {
      let published = false
      for (const tag of this.ownTags) if (tag.startsWith(PLACEHOLDER)) published = true
      this.modelTag = published ? PLACEHOLDER : ''
    }
    return this.modelTag
  }

  private keep(selector: string, type: PartType): void {
    this.selectorTypes.set(selector, type)
  }

  /** `data merge entity <selector> <compound>`, after `data`. */
  private dataMerge(words: Words): void {
    const action = words.next()
    if (action !== 'merge') throw new UnsafeContent('command', `data ${action}`)
    const target = words.next()
    if (target !== 'entity') throw new UnsafeContent('command', `data merge ${target}`)
    const selector = words.next()
    let type = this.selectorTypes.get(selector, 0, selector.length)
    if (type === undefined) {
      type = checkOwnPartSelector(selector, this.ownTags, this.tagOfModel())
      this.keep(selector, type)
    }
    checkPartData(type, words.compoundToEnd(), null)
  }
}

/** `playsound <sound> <source> <targets> <x> <y> <z> [volume [pitch [minVolume]]]`, after `playsound`. */
function checkPlaysound(words: Words): void {
  words.expect(SOUND_ID)
  const source = words.next()
  if (!SOUND_SOURCES.has(source)) throw new UnsafeContent('syntax', source)
  const targets = words.next()
  if (!PLAYERS.test(targets)) throw new UnsafeContent('selector', targets)
  for (let axis = 0; axis < 3; axis++) words.expect(COORDINATE)
  // Louder than real models play, or heard by every targeted player however far: refused.
  const bounds = [SOUND_LIMITS.maxVolume, Infinity, SOUND_LIMITS.maxMinVolume]
  const names = ['volume', 'pitch', 'minVolume']
  for (let optional = 0; optional < 3 && !words.atEnd(); optional++) {
    const word = words.expect(NUMBER)
    if (Number(word) > bounds[optional]!) throw new UnsafeContent('value', names[optional]!)
  }
  words.end()
}

/** `summon minecraft:interaction <x> <y> <z> [<compound>]`, after `summon`. */
function checkHitboxSummon(words: Words, ownTags: Set<string>): void {
  const id = words.next()
  if (partTypeOf(id) !== HITBOX_TYPE) throw new UnsafeContent('entity', id)
  // Relative to where the model is spawned, within 16 blocks: never at absolute coordinates.
  for (const axis of AXES) {
    if (!HITBOX_COORDINATE.test(words.expect(COORDINATE))) throw new UnsafeContent('value', axis)
  }
  if (!words.atEnd()) checkPartData(HITBOX_TYPE, words.compoundToEnd(), ownTags)
}

/**
 * Checks a `data merge` target: `@e[...]` with one `type=` of a part's type and one or more
 * `tag=`s that the model's own parts carry and that begin with `modelTag`, so that the selector
 * reaches only this model. Returns the type. A tag holds the placeholder in the published form
 * (`tag=[MODELSERVERTAG]_7`), so brackets nest inside the selector's.
 */
function checkOwnPartSelector(
  selector: string,
  ownTags: ReadonlySet<string>,
  modelTag: string,
): PartType {
  if (!selector.startsWith('@e[') || !selector.endsWith(']')) {
    throw new UnsafeContent('selector', selector)
  }
  let type: PartType | null = null
  let tagged = false
  for (const argument of selectorArguments(selector)) {
    const equals = argument.indexOf('=')
    const name = equals < 0 ? argument : argument.slice(0, equals)
    const value = equals < 0 ? '' : argument.slice(equals + 1)
    if (name === 'type') {
      const named = partTypeOf(value)
      if (named === null || type !== null) throw new UnsafeContent('selector', argument)
      type = named
    } else if (name === 'tag') {
      // `tag=!x` (every entity without x) and `tag=` (every untagged one) reach other models.
      if (
        value === '' ||
        value.startsWith('!') ||
        !value.startsWith(modelTag) ||
        !ownTags.has(value)
      ) {
        throw new UnsafeContent('selector', argument)
      }
      tagged = true
    } else if (!SELECTOR_EXTRA_ARGUMENTS.has(name) || !validExtra(name, value)) {
      throw new UnsafeContent('selector', argument)
    }
  }
  if (type === null || !tagged) throw new UnsafeContent('selector', selector)
  return type
}

function validExtra(name: string, value: string): boolean {
  if (name === 'distance') return value !== '' && DISTANCE.test(value)
  if (name === 'limit') return LIMIT.test(value)
  return SELECTOR_SORTS.has(value)
}

/**
 * The arguments of `@e[...]`, split at the commas outside nested brackets. Throws unless the
 * brackets balance and close at the selector's end.
 */
function selectorArguments(selector: string): string[] {
  const found: string[] = []
  let depth = 0
  let start = 3
  for (let i = 3; i < selector.length; i++) {
    const char = selector[i]
    if (char === '[') depth++
    else if (char === ']') {
      if (depth === 0) {
        if (i !== selector.length - 1) throw new UnsafeContent('selector', selector)
        if (i > start || found.length > 0) found.push(selector.slice(start, i))
        return found
      }
      depth--
    } else if (char === ',' && depth === 0) {
      found.push(selector.slice(start, i))
      start = i + 1
    }
  }
  throw new UnsafeContent('selector', selector)
}

/** The space-separated words of a command, read one at a time. */
class Words {
  private position = 0
  private readonly text: string
  private readonly keyTypes: KeyTypes

  constructor(text: string, keyTypes: KeyTypes) {
    this.text = text
    this.keyTypes = keyTypes
  }

  /** Whether the last word ended the text (a trailing space leaves one empty word to read). */
  atEnd(): boolean {
    return this.position > this.text.length
  }

  /** The next word (possibly empty), and the one space after it. */
  next(): string {
    const text = this.text
    if (this.position > text.length) unexpectedAt(text, text.length)
    const space = text.indexOf(' ', this.position)
    const end = space < 0 ? text.length : space
    const word = text.slice(this.position, end)
    this.position = end + 1
    return word
  }

  /** The next word, which must match `pattern`. */
  expect(pattern: RegExp): string {
    const word = this.next()
    if (!pattern.test(word)) throw new UnsafeContent('syntax', word)
    return word
  }

  /** Throws unless the command ended. */
  end(): void {
    if (!this.atEnd()) throw new UnsafeContent('syntax', this.next())
  }

  /** An SNBT compound that runs to the end of the command. */
  compoundToEnd(): SnbtValue & { kind: 'compound' } {
    const text = this.text
    if (text[this.position] !== '{') unexpectedAt(text, this.position)
    const { value, end } = parseSnbtValue(text, this.position, this.keyTypes)
    if (end !== text.length) unexpectedAt(text, end)
    return value as SnbtValue & { kind: 'compound' }
  }
}
