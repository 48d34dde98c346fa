/** What a plugin's own reader hands to the game: the entity type it summons, and its compound. */
export interface ReaderEntity {
  type: string
  compound: string
}
