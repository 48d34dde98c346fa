/**
 * One Durable Object per client (see client-key.ts) holding its request windows. Each request
 * is one `hit` call that decides from the windows in memory and updates them with no `await`
 * in between, so concurrent requests are serialized and no burst is admitted beyond the limit.
 *
 * Storage trails memory by at most one flush interval (write-behind.ts); what a restart loses:
 * docs/rate-limits.md#durability. No verdict waits for a write (writes go out unconfirmed).
 */
import { DurableObject } from 'cloudflare:workers'
import { DEFAULT_RATE_LIMIT_FLUSH_SECONDS, type Env } from '../config'
import { decide, latestReset, type RateVerdict, type WindowRule, type WindowState } from './windows'
import {
  LOADED,
  planAdmitted,
  planAlarm,
  type StoragePlan,
  type StorageState,
} from './write-behind'

/** Storage key of the window states, `{ [name]: { count, resetAt } }`; stable across versions. */
export const WINDOWS_KEY = 'windows'

/** A lost write loses at most the counts of one interval, which the loss bound allows anyway. */
const UNCONFIRMED = { allowUnconfirmed: true } as const

/** The per-client request counter (spec 8). */
export class RateLimiter extends DurableObject<Env> {
  /** The windows: memory is the truth while the instance lives, storage trails it. */
  private windows: Record<string, WindowState>
  private storage: StorageState = LOADED

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.windows = ctx.storage.kv.get<Record<string, WindowState>>(WINDOWS_KEY) ?? {}
  }

  /**
   * Counts a request against every window if all have room; refusals count nowhere.
   * `flushSeconds` is the flush interval (`RATE_LIMIT_FLUSH_SECONDS`).
   */
  hit(rules: WindowRule[], flushSeconds = DEFAULT_RATE_LIMIT_FLUSH_SECONDS): RateVerdict {
    const now = Date.now()
    const { verdict, next } = decide(rules, this.windows, now)
    if (next === null) return verdict
    this.windows = next
    this.apply(planAdmitted(this.storage, now, flushSeconds * 1000))
    return verdict
  }

  /** Writes what memory holds ahead of storage. */
  override alarm(): void {
    const lapsed = Date.now() >= (latestReset(this.windows) ?? -Infinity)
    this.apply(planAlarm(this.storage, lapsed))
  }

  private apply(plan: StoragePlan): void {
    this.storage = plan.state
    if (plan.write) void this.ctx.storage.put(WINDOWS_KEY, this.windows, UNCONFIRMED)
    if (plan.setAlarm !== undefined) void this.ctx.storage.setAlarm(plan.setAlarm, UNCONFIRMED)
  }
}
