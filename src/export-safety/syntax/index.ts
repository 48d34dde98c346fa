/**
 * The syntax room's face: the SNBT reader (entity data, typed against the types room as it is
 * read) and the JSON-text reader inside it. It imports the types room only.
 */
export { forEachCompound, parseSnbtValue, unexpectedAt } from './snbt.js'
export { readSnbtTree, type SnbtBuilder } from './snbt-tree.js'
export type { SnbtValue } from './snbt-value.js'
