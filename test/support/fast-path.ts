/** The command check's fast path on one frame command, spelled as a document spells it. */
import type { CommandCheck } from '../../src/export-safety/testing'

/**
 * Whether `check`'s fast path (`isPlainDataMerge`) accepts `command` where a document's ASCII
 * window holds it: JSON-spelled, characters outside ASCII as `\u` escapes (a window with any
 * other byte never reaches the fast path).
 */
export function fastPath(check: CommandCheck, command: string): boolean {
  const spelled = JSON.stringify(command).replace(
    /[^\u0000-\u007f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  const bytes = new TextEncoder().encode(spelled)
  return check.isPlainDataMerge(spelled, 1, spelled.length - 1, new DataView(bytes.buffer), 0)
}
