/**
 * The service's own admission code, for the harvest simulation (harvest.mjs, in Node, with
 * simulated time): bundled by esbuild from src/, so the simulation refuses exactly what the
 * service refuses. A policy sees one client address at a time: `admit` before the answer (may
 * this request be answered?), `answered` after it (was it a miss: no export at that ID?).
 *
 * `today` is the limiter without a miss limit: the two request windows per client key.
 */
import { clientKey } from '../../src/rate-limit/client-key'
import {
  DEFAULT_RATE_LIMIT_LONG,
  DEFAULT_RATE_LIMIT_SHORT,
  parseWindowRule,
} from '../../src/rate-limit/rules'
import { decide, type WindowRule, type WindowState } from '../../src/rate-limit/windows'

/** The miss limit's settings as the simulation's attackers know them (null: no miss limit). */
export interface MissSettings {
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
  misses: MissSettings | null
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
 * The service's policy as it stands in src/rate-limit/: today's until the miss limit's pure
 * module is there, then the request windows and the miss limit together.
 */
export function servicePolicy(): HarvestPolicy {
  return todayPolicy()
}
