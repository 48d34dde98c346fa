/**
 * What a refusal says: why (a reason from a fixed list, what metrics count), where (a JSON path)
 * and what was found there (a command word, an entity id, a key, ...). Never the content itself
 * beyond that one word, so a refusal can be logged.
 */
import { MAX_COMMAND_CHARS, MAX_SNBT_DEPTH } from './vocabulary.js'

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
]

/** The verdict on an export outside the vocabulary. */
export interface UnsafeExport {
  reason: UnsafeReason
  /** Where, in JSON-path spelling: `content.datapack.anim_keyframes.open.7[2]`. */
  path: string
  /** What was found there: the command word, entity id, key, selector argument, character, ... */
  found: string
  /** One sentence naming the path and what was found. */
  message: string
}

/** Thrown inside the check of one string; the walk adds the path. */
export class UnsafeContent extends Error {
  override name = 'UnsafeContent'
  readonly reason: UnsafeReason
  readonly found: string

  constructor(reason: UnsafeReason, found: string) {
    super(`${reason}: ${found}`)
    this.reason = reason
    this.found = found
  }
}

/** The verdict for `content` found at `path`. */
export function unsafeExport(path: string, content: UnsafeContent): UnsafeExport {
  const { reason, found } = content
  return { reason, path, found, message: `${path} ${describe(reason, found)}.` }
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
  }
}
