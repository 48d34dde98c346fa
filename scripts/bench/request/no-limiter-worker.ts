/**
 * Bench-only Worker: the app exactly as src/index.ts builds it (`createApp`), without the rate
 * limiter. The difference between it and the real bundle is the cost of the limiter. Its
 * ID_ALLOCATOR binding points at the real Worker's objects (a miss asks the allocator).
 */
import { createApp } from '../../../src/app'

export default createApp({ rateLimit: false })
