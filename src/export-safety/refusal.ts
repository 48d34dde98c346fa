/**
 * What a refusal says: why (a reason from a fixed list, what metrics count), where (a JSON path)
 * and what was found there (a command word, an entity id, a key, ...). Never the content itself
 * beyond that one word, so a refusal can be logged.
 */
import {
  MAX_COMMAND_CHARS,
  MAX_FOUND_CHARS,
  MAX_MESSAGE_PATH_CHARS,
  MAX_NAME_CHARS,
  MAX_OWN_TAGS,
  MAX_PASSENGER_BYTES,
  MAX_SNBT_DEPTH,
} from './vocabulary.js'

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
  /** JSON text with a component that reads the world (`selector`, `nbt`, `score`). */
  | 'text'
  /** A quoted string that a plugin's own reader would cut into other entities. */
  | 'reader'
  /** More of something than a model has (the tags of its parts). */
  | 'count'

/** Every reason, in a fixed order (for counters). */
export const UNSAFE_REASONS: readonly UnsafeReason[] = [
  'command',
  'entity',
  'key',
  'selector',
  'syntax',
  'control',
  'length',
  'depth',
  'shape',
  'member',
  'text',
  'reader',
  'count',
]

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

/** What a `length` refusal measured: a command (the default), a member name, a passenger string. */
export type Measured = 'command' | 'name' | 'passengers'

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
  const what =
    reason !== 'length' || measured === 'command'
      ? describe(reason, found)
      : measured === 'name'
        ? `holds a member name of ${found} characters, longer than ${MAX_NAME_CHARS}`
        : `brings the passenger strings to ${found} bytes as written, more than ${MAX_PASSENGER_BYTES}`
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

function describe(reason: UnsafeReason, found: string): string {
  switch (reason) {
    case 'command':
      return `runs the command "${found}", which is not part of a display model`
    case 'entity':
      return `summons the entity "${found}", which is not part of a display model`
    case 'key':
      return `sets the entity key "${found}", which is not part of a display model`
    case 'selector':
      return `targets "${found}", which does not reach only the model's own parts`
    case 'syntax':
      return `does not parse as an export writes it: unexpected "${found}"`
    case 'control':
      return `holds the control character ${found}, and a command is one line`
    case 'length':
      return `is a command of ${found} characters, longer than the game's ${MAX_COMMAND_CHARS}`
    case 'depth':
      return `nests SNBT deeper than ${MAX_SNBT_DEPTH} levels (found "${found}")`
    case 'shape':
      return `is a JSON ${found}, not what an export writes there`
    case 'member':
      return `is the member "${found}", which an export does not hold there`
    case 'text':
      return `holds JSON text that reads the world ("${found}"), which a display model does not`
    case 'reader':
      return `holds a quoted string with "${found}", which a plugin's own reader would cut into other entities`
    case 'count':
      return `has more than ${MAX_OWN_TAGS} ${found}, more than a display model has`
  }
}
