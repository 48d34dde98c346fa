/**
 * Bench-only Worker: the service exactly as src/index.ts builds it, with a limiter object (`MemoryOnlyLimiter`) that
 * keeps its windows in memory and never touches storage: the same middleware, the same `hit`
 * RPC and the same verdict, so what it costs over the no-limiter routes is one bare Durable
 * Object RPC per request, the floor of any limiter that asks an object. Its objects are
 * SQLite-backed like the real ones, so a cold one starts as the real one does. Its ID_ALLOCATOR
 * binding points at the real Worker's objects.
 */
import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../../../src/config'
import {
  decide,
  type RateVerdict,
  type WindowRule,
  type WindowState,
} from '../../../src/rate-limit/windows'

export { default, IdAllocator, PublishService } from '../../../src/index'

/** A per-client counter in memory only: forgets everything when evicted. */
export class MemoryOnlyLimiter extends DurableObject<Env> {
  private windows: Record<string, WindowState> = {}

  hit(_clientKey: string, { rules }: { rules: WindowRule[] }): RateVerdict {
    const { verdict, next } = decide(rules, this.windows, Date.now())
    if (next !== null) this.windows = next
    return verdict
  }
}
