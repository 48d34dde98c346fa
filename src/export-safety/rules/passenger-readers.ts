/**
 * The readers run on a passenger string the grammar accepted: each must read exactly the
 * entities the game reads (docs/export-safety.md, "Readers this check holds for"), or the string
 * is refused as `reader`, naming the reader.
 */
import { checkPassenger } from './entities.js'
import { UnsafeContent, type KeyTypes } from '../types/index.js'
import { forEachCompound } from '../syntax/index.js'
import {
  readsAsDisplayEntityUtils,
  READER_NAMES,
  cutsBetween,
  forEachSansCraftEntity,
  mayNest,
  readsAsSuperBlocksDisplays,
  type GrammarCompound,
} from '../readers/index.js'

/**
 * Throws the `reader` refusal unless every reader reads the passenger string `text` as the
 * grammar does: `compounds` its top-level compounds, `types` the display type of every entity
 * it holds (nested ones included), `keyTypes` as the export's declared version reads them.
 */
export function checkPassengerReaders(
  text: string,
  compounds: readonly GrammarCompound[],
  types: readonly string[],
  keyTypes: KeyTypes,
): void {
  if (!readsAsSuperBlocksDisplays(text, compounds)) refuse(READER_NAMES.superBlocksDisplays)
  if (!readsAsSansCraft(text, compounds, types, keyTypes)) refuse(READER_NAMES.sansCraft)
  // It summons the passengers inside its own `summon block_display ...`, replacing that text.
  if (!readsAsDisplayEntityUtils(text)) refuse(READER_NAMES.displayEntityUtils)
}

function refuse(reader: string): never {
  throw new UnsafeContent('reader', reader, 'reader')
}

/**
 * Whether sanscraft-bde reads `text` as the grammar does (after SuperBlocksDisplays' reading
 * held): without a nested list its pieces are the grammar's compounds, as written; with one, its flattened entities are as many as the
 * grammar's, each a passenger the check accepts on its own, of the same display types.
 */
function readsAsSansCraft(
  text: string,
  compounds: readonly GrammarCompound[],
  types: readonly string[],
  keyTypes: KeyTypes,
): boolean {
  // The compounds are joined by bare commas from end to end (SuperBlocksDisplays' reading).
  if (!mayNest(text))
    return cutsBetween(
      text,
      compounds.map((compound) => compound.end),
    )
  // Each entity is read and let go as the reader hands it over: only the count of each type is
  // kept, so a model of many parts never holds all of its entities' readings at once.
  const expected = new Map<string, number>()
  for (const type of types) expected.set(type, (expected.get(type) ?? 0) + 1)
  const scratchTags = new Set<string>()
  let entities = 0
  let sameTypes = true
  try {
    forEachSansCraftEntity(text, ({ compound }) => {
      entities++
      let count = 0
      forEachCompound(compound, keyTypes, (entity, start) => {
        if (start >= 0) count++
        const type = checkPassenger(entity, scratchTags)
        const left = expected.get(type) ?? 0
        if (left === 0) sameTypes = false
        else expected.set(type, left - 1)
      })
      if (count !== 1) sameTypes = false
      return sameTypes && entities <= types.length
    })
  } catch (error) {
    if (error instanceof UnsafeContent) return false
    throw error
  }
  return sameTypes && entities === types.length && [...expected.values()].every((n) => n === 0)
}
