/**
 * The readers room's face: the public plugins' own readers of an export, as docs/export-safety.md
 * ("Readers this check holds for") tables them, written again as code that the check runs: an
 * export is refused (`reader`, naming the reader) unless each of them reads exactly the entities
 * and commands the game reads. The models are plain code over text; the room imports no other
 * room of the check, and the rules room holds what they read to the vocabulary.
 */
export { readsAsDisplayEntityUtils } from './display-entity-utils.js'
export { cutsBetween, forEachSansCraftEntity, mayNest, sansCraft } from './sanscraft-bde.js'
export {
  readsAsSuperBlocksDisplays,
  superBlocksDisplays,
  type GrammarCompound,
} from './super-blocks-displays.js'

export { READER_NAMES } from './names.js'
