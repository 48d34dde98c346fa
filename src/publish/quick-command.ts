/**
 * The quick command shown next to a publication ID (docs/api.md#lifetime-and-ids): `/model spawn
 * <id>` unless the user set a prefix of their own. It is text for copying; the HTTP interface does
 * not depend on it.
 */
import { ServiceFailure } from '../http'

/** The prefix used when the user set none. */
export const DEFAULT_QUICK_COMMAND_PREFIX = 'model spawn'
/** Minecraft's chat line limit: a longer command cannot be pasted into chat. */
export const MAX_QUICK_COMMAND_LENGTH = 256

/**
 * Control characters (a newline would turn one command into two), format characters such as the
 * bidirectional overrides (U+202E shows `/model spawn 1` reversed) and zero-width ones, and the
 * line and paragraph separators.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u
const ID_LENGTH = 6

/**
 * Checks and normalizes a user's prefix: trimmed, with one leading `/` (the user's own is kept,
 * not doubled). Empty means the default. Throws `invalid_quick_command` on control, format or
 * separator characters, or when the command would be too long for chat.
 */
export function quickCommandPrefix(raw: string | null | undefined): string {
  const trimmed = (raw ?? '').trim()
  if (trimmed === '' || trimmed === '/') return '/' + DEFAULT_QUICK_COMMAND_PREFIX
  if (UNPRINTABLE.test(trimmed)) {
    throw new ServiceFailure({
      reason: 'invalid_quick_command',
      detail:
        'The quick command prefix must not contain control, format or bidirectional characters, or line breaks.',
    })
  }
  const prefix = trimmed.startsWith('/') ? trimmed : '/' + trimmed
  if (prefix.length + 1 + ID_LENGTH > MAX_QUICK_COMMAND_LENGTH) {
    throw new ServiceFailure({
      reason: 'invalid_quick_command',
      detail: `The quick command must fit in ${MAX_QUICK_COMMAND_LENGTH} characters with the ID.`,
    })
  }
  return prefix
}

/** The command to copy, from a prefix normalized by `quickCommandPrefix`. */
export function quickCommand(prefix: string, id: string): string {
  return `${prefix} ${id}`
}
