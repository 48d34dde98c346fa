/**
 * One Durable Object per client (see client-key.ts) holding its request windows. Each request
 * is one `hit` call that reads, decides and writes with no `await` in between, so concurrent
 * requests are serialized and no burst is admitted beyond the limit. The SQLite-backed sync KV
 * API makes that possible; its writes are durable before the answer leaves the object, so the
 * counts survive eviction. An alarm at the latest window reset deletes everything, so the
 * millions of addresses seen once leave nothing stored.
 */
import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../config'
import { decide, latestReset, type RateVerdict, type WindowRule, type WindowState } from './windows'

/** Storage key of the window states, `{ [name]: { count, resetAt } }`; stable across versions. */
export const WINDOWS_KEY = 'windows'

/** The per-client request counter (spec 8). */
export class RateLimiter extends DurableObject<Env> {
  /**
   * What storage holds, kept in memory: the object is the only writer, so after the first read
   * each hit costs one write and no read. Gone with the instance, and read again by the next.
   */
  private windows: Record<string, WindowState> | undefined

  /** Counts a request against every window if all have room; refusals count nowhere. */
  async hit(rules: WindowRule[]): Promise<RateVerdict> {
    const stored = this.storedWindows()
    const { verdict, next } = decide(rules, stored, Date.now())
    if (next === null) return verdict
    this.ctx.storage.kv.put(WINDOWS_KEY, next)
    this.windows = next
    // The latest reset moves only when a window starts; the alarm follows it.
    const cleanupAt = latestReset(next)
    if (cleanupAt !== undefined && cleanupAt !== latestReset(stored)) {
      await this.ctx.storage.setAlarm(cleanupAt)
    }
    return verdict
  }

  /** Deletes the object's storage once every window has lapsed; otherwise waits for the last. */
  override async alarm(): Promise<void> {
    const cleanupAt = latestReset(this.storedWindows())
    if (cleanupAt !== undefined && Date.now() < cleanupAt) {
      await this.ctx.storage.setAlarm(cleanupAt)
      return
    }
    // The input gate holds new requests until this completes, so none is lost in between.
    await this.ctx.storage.deleteAll()
    this.windows = {}
  }

  private storedWindows(): Record<string, WindowState> {
    this.windows ??= this.ctx.storage.kv.get<Record<string, WindowState>>(WINDOWS_KEY) ?? {}
    return this.windows
  }
}
