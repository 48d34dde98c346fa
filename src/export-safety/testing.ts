/**
 * The export-safety room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both). Each name is one a test cannot reach through the face, over
 * HTTP or in the room's vectors, because the face gives only the verdict that two inner ways of
 * reaching it share. Why a second face: docs/architecture.md#the-layering-rules.
 */
/** The command check, driven alone: its fast path and its selector cache agree with its full grammar. */
export { CommandCheck } from './rules/index'
/** What the command check throws, so a test tells a refusal (its reason) from a fault. */
export { UnsafeContent } from './types/index'
/** The check's models of two plugins' readers, held against the tests' own (oracle-readers.ts). */
export { sansCraft, superBlocksDisplays } from './readers/index'
