/**
 * The exports room's second face, for test/ and scripts/bench/ only (never imported by src/;
 * dependency-cruiser checks both): the read path's body pump and its limits, the substitution
 * chosen for an export, the tag rule, which the room's own code uses and the tests and the bench
 * reach. Why a second face: docs/architecture.md#the-layering-rules.
 */
export {
  pumpSubstituted,
  READ_CHUNK_BYTES,
  SinkClosedError,
  streamReadBytes,
  WHOLE_READ_MAX_BYTES,
} from './substituted-body'
export { substitutionFor } from './substitution-for-export'
export { sanitizeTag } from './tag'
