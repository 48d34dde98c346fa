/**
 * The public plugins' own readers of an export, as docs/export-safety.md ("Readers this check
 * holds for") tables them, written again as code that the check runs: an export is refused
 * (`reader`, naming the reader) unless each of them reads exactly the entities and commands the
 * game reads.
 */
export { blockDisplayCreator } from './block-display-creator.js'
export { displayEntityUtils, readsAsDisplayEntityUtils } from './display-entity-utils.js'
export type { ReaderEntity } from './reader-entity.js'
export { sansCraft } from './sanscraft-bde.js'
export { superBlocksDisplays, type GrammarCompound } from './super-blocks-displays.js'

export { READER_NAMES } from './names.js'
