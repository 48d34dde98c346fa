/** The readers' names, as a `reader` refusal's `found` gives them (`vocabulary.json`'s `readers`). */
export const READER_NAMES = {
  superBlocksDisplays: 'SuperBlocksDisplays',
  sansCraft: 'sanscraft-bde',
  displayEntityUtils: 'DisplayEntityUtils',
  blockDisplayCreator: 'BlockDisplayCreator',
} as const
