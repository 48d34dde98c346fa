/**
 * Bench-only: a write-through rate limiter, the baseline of the limiter rows. Every admitted
 * request writes the windows with the sync KV API before its answer leaves the object (the output
 * gate holds it until the write is durable), and sets the cleanup alarm whenever the latest window
 * reset moves.
 */
import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../../src/config'
import { WINDOWS_KEY } from '../../src/rate-limit/rate-limiter'
import {
  decide,
  latestReset,
  type RateVerdict,
  type WindowRule,
  type WindowState,
} from '../../src/rate-limit/windows'

/** The per-client counter that writes through on every admitted request. */
export class WriteThroughRateLimiter extends DurableObject<Env> {
  private windows: Record<string, WindowState> | undefined

  async hit(rules: WindowRule[]): Promise<RateVerdict> {
    const stored = this.storedWindows()
    const { verdict, next } = decide(rules, stored, Date.now())
    if (next === null) return verdict
    this.ctx.storage.kv.put(WINDOWS_KEY, next)
    this.windows = next
    const cleanupAt = latestReset(next)
    if (cleanupAt !== undefined && cleanupAt !== latestReset(stored)) {
      await this.ctx.storage.setAlarm(cleanupAt)
    }
    return verdict
  }

  override async alarm(): Promise<void> {
    const cleanupAt = latestReset(this.storedWindows())
    if (cleanupAt !== undefined && Date.now() < cleanupAt) {
      await this.ctx.storage.setAlarm(cleanupAt)
      return
    }
    await this.ctx.storage.deleteAll()
    this.windows = {}
  }

  private storedWindows(): Record<string, WindowState> {
    this.windows ??= this.ctx.storage.kv.get<Record<string, WindowState>>(WINDOWS_KEY) ?? {}
    return this.windows
  }
}
