/**
 * The rate-limit policy of the vars: two windows every client has at once, each written as
 * `"requests/seconds"`.
 */
import type { Env } from '../config'
import type { WindowRule } from './windows'

/** Spec 8: 120 requests per 60 seconds per external IP address. */
export const DEFAULT_RATE_LIMIT_SHORT = '120/60'
/** Spec 8: 1200 requests per 3600 seconds per external IP address. */
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
