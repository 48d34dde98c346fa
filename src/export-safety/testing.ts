/**
 * The export-safety room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the command check, the refusal, the vocabulary's part keys and
 * its file as data, the JSON text reader, the plugins' readers and the typed tree, which the
 * room's own code uses and the tests and the bench reach. Why a second face: docs/architecture.md#the-layering-rules.
 */
export { CommandCheck } from './rules/index'
export { UnsafeContent } from './types/index'
export { PART_KEYS, type PartType } from './types/index'
export { default as vocabularyFile } from './types/vocabulary.json'
export { NOT_JSON, REPEATED, readJsonText } from './syntax/index'
export {
  blockDisplayCreator,
  displayEntityUtils,
  READER_NAMES,
  sansCraft,
  superBlocksDisplays,
  type ReaderEntity,
} from './readers/index'
export { jsonTextMatches, textFacts, type TextFacts } from './types/index'
export { KEY_TYPES } from './types/index'
