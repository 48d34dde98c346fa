/**
 * The ids room's face: the Worker's calls to the ID allocator (allocate, keep the grace copy,
 * release, look up, count), what a shard answers of an ID, and the allocator's Durable Object
 * class, which the Worker exports (src/index.ts).
 */
export {
  allocateId,
  appendGraceCopy,
  graceCopyStart,
  idSpaceStatus,
  LOOKUP_TIMEOUT_MS,
  lookupId,
  releaseId,
} from './allocator-client'
export { IdAllocator } from './id-allocator'
export type { CopyPart, GraceCopy, IdState } from './protocol'
