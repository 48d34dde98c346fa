/**
 * The rate-limit policy of the vars: two windows every client has at once, each written as
 * `"requests/seconds"`, the miss limit (misses.ts): budgets written as `"misses/seconds"`, the
 * first and the longest penalty in seconds, and a switch; and the exempt networks
 * (exempt-networks.ts).
 */
import { positiveInteger, type Env } from '../config'
import { parseExemptNetworks, type ExemptNetworks } from './exempt-networks'
import { DEFAULT_MISS_SETTINGS, type MissBudget, type MissSettings } from './misses'
import type { WindowRule } from './windows'

/** 120 requests per 60 seconds per external IP address (docs/api.md#rate-limits). */
export const DEFAULT_RATE_LIMIT_SHORT = '120/60'
/** 1200 requests per 3600 seconds per external IP address (docs/api.md#rate-limits). */
export const DEFAULT_RATE_LIMIT_LONG = '1200/3600'

const RULE_PATTERN = /^(\d{1,9})\/(\d{1,9})$/

/** The two windows every client has at once, from `RATE_LIMIT_SHORT` and `RATE_LIMIT_LONG`. */
export function rateLimitRules(env: Env): WindowRule[] {
  return [
    parseWindowRule('short', env.RATE_LIMIT_SHORT || DEFAULT_RATE_LIMIT_SHORT),
    parseWindowRule('long', env.RATE_LIMIT_LONG || DEFAULT_RATE_LIMIT_LONG),
  ]
}

/** Parses a rule written as `"requests/seconds"`, e.g. `"120/60"`. */
export function parseWindowRule(name: string, raw: string): WindowRule {
  const match = RULE_PATTERN.exec(raw.trim())
  const limit = Number(match?.[1])
  const periodSeconds = Number(match?.[2])
  if (!match || limit <= 0 || periodSeconds <= 0) {
    throw new Error(
      `The ${name} rate limit must look like "120/60" (requests/seconds), got "${raw}"`,
    )
  }
  return { name, limit, periodSeconds }
}

/** `RATE_LIMIT_MISSES` default: the miss limit is on. */
export const DEFAULT_RATE_LIMIT_MISSES = 'on'

const budgetText = (b: MissBudget): string => `${b.budget}/${b.windowSeconds}`

/**
 * The miss limit from `RATE_LIMIT_MISSES` (`on` or `off`), `RATE_LIMIT_CLIENT_MISSES`,
 * `RATE_LIMIT_PREFIX_MISSES` (`"misses/seconds"`), `RATE_LIMIT_FIRST_PENALTY_SECONDS` and
 * `RATE_LIMIT_LONGEST_PENALTY_SECONDS`; unset ones take the defaults (misses.ts).
 */
export function missSettings(env: Env): MissSettings {
  const d = DEFAULT_MISS_SETTINGS
  const switchedTo = env.RATE_LIMIT_MISSES || DEFAULT_RATE_LIMIT_MISSES
  if (switchedTo !== 'on' && switchedTo !== 'off') {
    throw new Error(`RATE_LIMIT_MISSES must be "on" or "off", got "${switchedTo}"`)
  }
  const budget = (name: string, raw: string | undefined, fallback: MissBudget): MissBudget => {
    const rule = parseWindowRule(name, raw || budgetText(fallback))
    return { budget: rule.limit, windowSeconds: rule.periodSeconds }
  }
  const first = positiveInteger(
    env.RATE_LIMIT_FIRST_PENALTY_SECONDS,
    d.firstPenaltySeconds,
    'RATE_LIMIT_FIRST_PENALTY_SECONDS',
  )
  const longest = positiveInteger(
    env.RATE_LIMIT_LONGEST_PENALTY_SECONDS,
    d.longestPenaltySeconds,
    'RATE_LIMIT_LONGEST_PENALTY_SECONDS',
  )
  if (longest < first) {
    throw new Error(
      `RATE_LIMIT_LONGEST_PENALTY_SECONDS (${longest}) must be at least RATE_LIMIT_FIRST_PENALTY_SECONDS (${first})`,
    )
  }
  return {
    enabled: switchedTo === 'on',
    client: budget('client miss', env.RATE_LIMIT_CLIENT_MISSES, d.client),
    prefix: budget('prefix miss', env.RATE_LIMIT_PREFIX_MISSES, d.prefix),
    firstPenaltySeconds: first,
    longestPenaltySeconds: longest,
  }
}

/**
 * The networks exempt from prefix penalties, from `RATE_LIMIT_EXEMPT_NETWORKS`; throws on a list
 * that does not parse. Called at startup (src/index.ts), so a bad list stops the Worker.
 */
export function exemptNetworks(env: Pick<Env, 'RATE_LIMIT_EXEMPT_NETWORKS'>): ExemptNetworks {
  return parseExemptNetworks(env.RATE_LIMIT_EXEMPT_NETWORKS)
}
