/**
 * What a refusal says: why (a reason from a fixed list, what metrics count), where (a JSON path)
 * and what was found there (a command word, an entity id, a key, ...). Never the content itself
 * beyond that one word, so a refusal can be logged.
 */
import data from './vocabulary.json' with { type: 'json' }
import { MAX_FOUND_CHARS, MAX_MESSAGE_PATH_CHARS } from './vocabulary.js'

/** The message templates, by reason (and `lengthName`, `lengthPassengers`, `lengthText`, `readerRun`). */
const MESSAGES = data.messages
/** The limits a template may name (`{maxCommandChars}`). */
const LIMITS: Readonly<Record<string, number>> = data.limits

/** Why a checked field is outside the vocabulary. */
export type UnsafeReason =
  /** A command other than the ones that animate a model (`op`, `execute`, `summon`, ...). */
  | 'command'
  /** An entity other than a display entity (or, in a hitbox, an interaction). */
  | 'entity'
  /** A key the entity does not have, or `Passengers` where no passenger belongs. */
  | 'key'
  /** A selector that could reach something other than the model's own parts. */
  | 'selector'
  /** Text that does not parse as the editor writes it (SNBT or command arguments). */
  | 'syntax'
  /** A control character (a line break starts a second command). */
  | 'control'
  /** A command longer than the game's limit. */
  | 'length'
  /** SNBT nested deeper than the limit. */
  | 'depth'
  /** A checked field of another JSON type than the editor writes. */
  | 'shape'
  /** A root member other than `content`, or a name that only looks like a checked one. */
  | 'member'
  /**
   * Text with a component that reads the world (`selector`, `nbt`, `score`), or with a click
   * event (`clickEvent`, `click_event`), which acts when a player clicks the text.
   */
  | 'text'
  /** A quoted string that a plugin's own reader would cut into other entities. */
  | 'reader'
  /** More of something than a model has (the tags of its parts). */
  | 'count'
  /** A value of another type than the game reads at that key (`found`: where, in the SNBT). */
  | 'type'
  /** An item component a display model does not carry (`found`: its name). */
  | 'component'
  /** The tag placeholder where the editor never writes it (`found`: where, in the SNBT). */
  | 'placeholder'
  /** An SNBT escape that Minecraft reads differently by version (`found`: `\\x`, `\\u`, ...). */
  | 'escape'
  /** A member of `content` outside its type's bounds (`found`: the member, or where in it). */
  | 'value'

/** Every reason, in a fixed order (for counters): `vocabulary.json`'s `reasons`. */
export const UNSAFE_REASONS: readonly UnsafeReason[] = data.reasons as UnsafeReason[]

/** The verdict on an export outside the vocabulary. */
export interface UnsafeExport {
  reason: UnsafeReason
  /** Where, in JSON-path spelling: `content.datapack.anim_keyframes.open.7[2]`. */
  path: string
  /**
   * What was found there: the command word, entity id, key, selector argument, character, ...,
   * at most `MAX_FOUND_CHARS` code units (`cut`).
   */
  found: string
  /** One sentence naming the path (cut to `MAX_MESSAGE_PATH_CHARS`) and what was found. */
  message: string
}

/**
 * Which message a refusal takes: a `length` refusal measured a command (the default), a member
 * name, the passenger strings or a text (`found` where it is, in the SNBT); a `reader` refusal names a marker or (`reader`) a reader; a
 * `text` refusal names a world-reading kind or (`click`) a click event.
 */
export type Measured = 'command' | 'name' | 'passengers' | 'text' | 'reader' | 'click'

/** Thrown inside the check of one string; the walk adds the path. */
export class UnsafeContent extends Error {
  override name = 'UnsafeContent'
  readonly reason: UnsafeReason
  readonly found: string
  readonly measured: Measured

  constructor(reason: UnsafeReason, found: string, measured: Measured = 'command') {
    super(`${reason}: ${found}`)
    this.reason = reason
    this.found = found
    this.measured = measured
  }
}

/**
 * The verdict for `content` found at `path` (for a member name too long, the path of the object
 * that holds it).
 */
export function unsafeExport(path: string, content: UnsafeContent): UnsafeExport {
  const { reason, measured } = content
  const found = cut(content.found, MAX_FOUND_CHARS)
  const where = path === '' ? 'The document' : cut(path, MAX_MESSAGE_PATH_CHARS)
  const template =
    measured === 'name'
      ? MESSAGES.lengthName
      : measured === 'passengers'
        ? MESSAGES.lengthPassengers
        : measured === 'text'
          ? MESSAGES.lengthText
          : measured === 'reader'
            ? MESSAGES.readerRun
            : measured === 'click'
              ? MESSAGES.textClick
              : MESSAGES[reason]
  const what = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'found' ? found : String(LIMITS[name]),
  )
  return { reason, path, found, message: `${where} ${what}.` }
}

/**
 * `text` cut to at most `max` UTF-16 code units: the first `max` units (one fewer when the last
 * would be the first half of a surrogate pair), then `…` (U+2026), which counts in the `max`.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max - 1
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${text.slice(0, end)}\u2026`
}
