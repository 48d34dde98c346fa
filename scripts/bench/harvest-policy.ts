/**
 * The service's own admission code, for the harvest simulation (harvest.mjs, in Node, with
 * simulated time): bundled by esbuild from src/, so the simulation refuses exactly what the
 * service refuses. A policy sees one client address at a time: `admit` before the answer (may
 * this request be answered?), `answered` after it (was it a miss: no export at that ID?).
 *
 * `todayPolicy` is the limiter without a miss limit: the two request windows per client key.
 * `servicePolicy` is the limiter of src/rate-limit/limits.ts, as its object applies it: the
 * request windows and the miss limit per client key and per prefix.
 */
import type { Env } from '../../src/config'
import { clientKey, prefixKey } from '../../src/rate-limit/client-key'
import { admit, miss, type ClientRecord, type LimitPolicy } from '../../src/rate-limit/limits'
import type { MissState } from '../../src/rate-limit/misses'
import {
  DEFAULT_RATE_LIMIT_LONG,
  DEFAULT_RATE_LIMIT_SHORT,
  missSettings,
  parseWindowRule,
  rateLimitRules,
} from '../../src/rate-limit/rules'
import { decide, type WindowRule, type WindowState } from '../../src/rate-limit/windows'

/** The miss limit's settings as the simulation's attackers know them (null: no miss limit). */
export interface MissBudgets {
  clientBudget: number
  clientWindowSeconds: number
  prefixBudget: number
  prefixWindowSeconds: number
  firstPenaltySeconds: number
  longestPenaltySeconds: number
}

export interface Admission {
  admitted: boolean
  /** When a refused request would be admitted (ms, simulated time); 0 when admitted. */
  retryAt: number
}

export interface HarvestPolicy {
  /** What the policy is, for the report. */
  name: string
  misses: MissBudgets | null
  /** The client key and the wider prefix an address counts against. */
  keysOf(address: string): { client: string; prefix: string }
  admit(address: string, now: number): Admission
  answered(address: string, now: number, miss: boolean): void
}

/** The two request windows of spec 8 at their defaults (wrangler.toml's values). */
function defaultRules(): WindowRule[] {
  return [
    parseWindowRule('short', DEFAULT_RATE_LIMIT_SHORT),
    parseWindowRule('long', DEFAULT_RATE_LIMIT_LONG),
  ]
}

/** `clientKey`, remembered per address: the simulation asks for the same addresses millions of times. */
function memoized(keyOf: (address: string) => string): (address: string) => string {
  const keys = new Map<string, string>()
  return (address) => {
    let key = keys.get(address)
    if (key === undefined) {
      key = keyOf(address)
      keys.set(address, key)
    }
    return key
  }
}

/** Today's policy: each client key's two request windows, nothing counted for misses. */
export function todayPolicy(): HarvestPolicy {
  const rules = defaultRules()
  const windows = new Map<string, Record<string, WindowState>>()
  const keyOf = memoized(clientKey)
  return {
    name: 'request windows only (120/60 s, 1,200/3,600 s per client key)',
    misses: null,
    keysOf: (address) => ({ client: keyOf(address), prefix: keyOf(address) }),
    admit(address, now) {
      const key = keyOf(address)
      const { verdict, next } = decide(rules, windows.get(key) ?? {}, now)
      if (next !== null) windows.set(key, next)
      return { admitted: verdict.admitted, retryAt: verdict.retryAt }
    },
    answered() {},
  }
}

/**
 * The service's policy under the settings of `vars` (wrangler.toml's, as deployed): the same
 * `admit` and `miss` its rate-limit object calls, over the records it keeps, one per client
 * key and one per prefix.
 */
export function servicePolicy(vars: Partial<Env> = {}): HarvestPolicy {
  const env = vars as Env
  const policy: LimitPolicy = { rules: rateLimitRules(env), misses: missSettings(env) }
  const clients = new Map<string, ClientRecord>()
  const prefixes = new Map<string, MissState>()
  const keyOf = memoized(clientKey)
  const prefixOf = memoized((address) => prefixKey(keyOf(address)))
  const m = policy.misses
  const windows = policy.rules.map((r) => `${r.limit}/${r.periodSeconds} s`).join(', ')
  return {
    name: m.enabled
      ? `request windows (${windows}) and misses (${m.client.budget}/${m.client.windowSeconds} s ` +
        `per client key, ${m.prefix.budget}/${m.prefix.windowSeconds} s per prefix, penalty ` +
        `${m.firstPenaltySeconds} s doubling up to ${m.longestPenaltySeconds} s)`
      : `request windows only (${windows}), the miss limit off`,
    misses: m.enabled
      ? {
          clientBudget: m.client.budget,
          clientWindowSeconds: m.client.windowSeconds,
          prefixBudget: m.prefix.budget,
          prefixWindowSeconds: m.prefix.windowSeconds,
          firstPenaltySeconds: m.firstPenaltySeconds,
          longestPenaltySeconds: m.longestPenaltySeconds,
        }
      : null,
    keysOf: (address) => ({ client: keyOf(address), prefix: prefixOf(address) }),
    admit(address, now) {
      const key = keyOf(address)
      const { verdict, client } = admit(
        clients.get(key),
        prefixes.get(prefixOf(address)),
        policy,
        now,
      )
      if (client !== null) clients.set(key, client)
      return { admitted: verdict.admitted, retryAt: verdict.retryAt }
    },
    answered(address, now, missed) {
      if (!missed) return
      const key = keyOf(address)
      const prefix = prefixOf(address)
      const after = miss(clients.get(key), prefixes.get(prefix), policy, now)
      if (after === null) return
      clients.set(key, after.client)
      prefixes.set(prefix, after.prefix)
    },
  }
}
