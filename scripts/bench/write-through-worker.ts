/**
 * Bench-only Worker: the service exactly as src/index.ts builds it, with the rate limiter of
 * before write-behind (write-through-limiter.ts) bound as its `RateLimiter`: the "before" of
 * the GET and HEAD rows. Its ID_ALLOCATOR binding points at the real Worker's objects.
 */
export { default, IdAllocator, PublishService } from '../../src/index'
export { WriteThroughRateLimiter as RateLimiter } from './write-through-limiter'
