/**
 * PZDonny/DisplayEntityUtils' reading of a command: it dispatches each command whole, replacing
 * only the text `summon block_display ~-0.5 ~-0.5 ~-0.5` by its own position. Written again here
 * so that the check reads every command as it does (docs/export-safety.md, "Readers this check
 * holds for").
 */

/** What the plugin replaces by its own position before it dispatches a command. */
const POSITIONED = 'summon block_display ~-0.5 ~-0.5 ~-0.5'

/**
 * Whether DisplayEntityUtils dispatches `command` as the check read it: it changes nothing
 * (the vocabulary's commands never summon a block display, so the text can only stand inside
 * one of their strings, which the replacement would change).
 */
export function readsAsDisplayEntityUtils(command: string): boolean {
  return !command.includes(POSITIONED)
}
