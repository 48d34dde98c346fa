/**
 * Scrulius/SuperBlocksDisplays' reading of a passenger string (`ModelGroup.java`): it splits the
 * string at `(?<=\}),(?=\{id:"minecraft:)`, blind to quotes, takes each piece's type from
 * `^\{id:"minecraft:([^"]+)"` (else `item_display`), drops the first `{id:"minecraft:...",` and
 * summons a `minecraft:<type>` from the rest. Written again here so that the check reads every
 * passenger string as it does (docs/export-safety.md, "Readers this check holds for").
 */
import type { ReaderEntity } from './reader-entity.js'

/** Where the plugin cuts a passenger string. */
const SPLIT = /(?<=\}),(?=\{id:"minecraft:)/
/** What `SPLIT` cuts in the middle of. */
const CUT = '},{id:"minecraft:'
/** Where it reads a piece's type. */
const TYPE = /^\{id:"minecraft:([^"]+)"/
/** The type it summons a piece as when the piece does not name one. */
const DEFAULT_TYPE = 'item_display'

/** The entities SuperBlocksDisplays summons from the passenger string `passengers`. */
export function superBlocksDisplays(passengers: string): ReaderEntity[] {
  return passengers.split(SPLIT).map((piece) => ({
    type: TYPE.exec(piece)?.[1] ?? DEFAULT_TYPE,
    compound: piece,
  }))
}

/** A compound as the grammar reads it: where it stands in its string, and its display type. */
export interface GrammarCompound {
  start: number
  end: number
  type: string
}

/**
 * Whether SuperBlocksDisplays reads the passenger string `text` as the grammar does, whose
 * top-level compounds are `compounds`: it cuts exactly between them (so each piece is one
 * compound the check read whole), and each piece begins by naming the type the grammar reads
 * (else the plugin would summon an item display, or the wrong display). Reads the cuts in place,
 * without making the pieces.
 */
export function readsAsSuperBlocksDisplays(
  text: string,
  compounds: readonly GrammarCompound[],
): boolean {
  // No compound: it summons one item display of what is not a compound, which the game refuses.
  if (compounds.length === 0) return !SPLIT.test(text)
  if (compounds[0]!.start !== 0 || compounds[compounds.length - 1]!.end !== text.length) {
    return false
  }
  // The cuts of `SPLIT`, found with `indexOf`: each is the `,` of a `},{id:"minecraft:`.
  let index = 0
  for (let at = text.indexOf(CUT); at >= 0; at = text.indexOf(CUT, at + 2)) {
    const previous = compounds[index]
    const next = compounds[index + 1]
    if (previous === undefined || next === undefined) return false
    if (previous.end !== at + 1 || next.start !== at + 2) return false
    index++
  }
  if (index !== compounds.length - 1) return false
  // The grammar read a quoted id there, so the name ends within the compound.
  const typeAt = new RegExp(TYPE.source.slice(1), 'y')
  for (const { start, type } of compounds) {
    typeAt.lastIndex = start
    if (typeAt.exec(text)?.[1] !== type) return false
  }
  return true
}
