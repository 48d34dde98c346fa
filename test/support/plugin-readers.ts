/**
 * What the public plugins' readers (now in the product: src/export-safety/readers/) hand to the
 * game from an export, judged by the check itself: the tests' view of "every reader reads an
 * accepted export as the game does".
 */
import { checkExportSafety } from '../../src/client'
import { sansCraft, superBlocksDisplays } from '../../src/export-safety/testing'
import type { ReaderEntity } from './oracle-readers'

export { sansCraft, superBlocksDisplays }

/** The passenger strings of an export (`passengers`, older `Passengers`). */
export function passengerStrings(text: string): string[] {
  const content = (JSON.parse(text) as { content: Record<string, unknown> }).content
  return [content.passengers, content.Passengers].flat().filter((s) => typeof s === 'string')
}

const DISPLAYS = new Set(['block_display', 'item_display', 'text_display'])

/**
 * Whether the game, handed `entity` by a reader, makes only what the check accepts: a display
 * entity of the reader's type from a compound that checks as a passenger (one that does not begin
 * with its type's name as one of a display's own passengers, where every reader leaves it whole).
 */
function readsAsAccepted({ type, compound }: ReaderEntity, version: unknown): boolean {
  const host = compound.startsWith('{id:"minecraft:')
    ? compound
    : `{id:"minecraft:block_display",Passengers:[${compound}]}`
  // Checked as the export's own game version reads it.
  const verdict = checkExportSafety({ content: { passengers: [host], version } })
  return verdict.safe && DISPLAYS.has(type)
}

/** Whether `text`'s passengers read, under every documented reader, as accepted entities. */
export function readsTheSame(text: string): boolean {
  const version = (JSON.parse(text) as { content: Record<string, unknown> }).content.version
  const accepted = (entity: ReaderEntity) => readsAsAccepted(entity, version)
  return passengerStrings(text).every(
    (passengers) =>
      superBlocksDisplays(passengers).every(accepted) && sansCraft(passengers).every(accepted),
  )
}
