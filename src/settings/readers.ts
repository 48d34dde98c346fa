/**
 * Every setting's reader, in one place: the product's own parser of each var, as the Worker calls
 * it. `npm start` and `npm run deploy` run all of them before anything starts
 * (scripts/settings-check.mjs), so a value the Worker would refuse, at startup or with a logged
 * `500` on the requests it affects, stops them with the same message. A new setting joins the
 * check by being listed here; test/settings/readers.test.ts fails for a var of `wrangler.toml` or
 * a row of the README's settings table that is not.
 */
import {
  exportPolicy,
  exportTtlSeconds,
  idQuarantineSeconds,
  idSpaceSize,
  publishGraceSeconds,
  rateLimitFlushSeconds,
  type Env,
} from '../config'
import { deprecatedUses } from '../deprecation'
import { defaultTag } from '../exports'
import { exemptNetworks, missSettings, rateLimitRules } from '../rate-limit'
import { simulatedKvLagSeconds } from '../storage'

/** One parser of the product and the settings it reads; it throws when one of them cannot work. */
export interface SettingReader {
  names: readonly string[]
  read: (env: Env) => unknown
}

/** Settings whose every value is accepted (secrets, a binding): there is nothing to check. */
export const UNCHECKED_SETTINGS: readonly string[] = [
  'PUBLISH_TOKEN',
  'PUBLISH_TOKEN_NEXT',
  'LOG_CLIENT_KEY',
  'METRICS',
]

export const SETTING_READERS: readonly SettingReader[] = [
  { names: ['EXPORT_TTL_SECONDS'], read: exportTtlSeconds },
  { names: ['ID_QUARANTINE_SECONDS'], read: idQuarantineSeconds },
  { names: ['RATE_LIMIT_SHORT', 'RATE_LIMIT_LONG'], read: rateLimitRules },
  { names: ['RATE_LIMIT_FLUSH_SECONDS'], read: rateLimitFlushSeconds },
  {
    names: [
      'RATE_LIMIT_MISSES',
      'RATE_LIMIT_CLIENT_MISSES',
      'RATE_LIMIT_PREFIX_MISSES',
      'RATE_LIMIT_FIRST_PENALTY_SECONDS',
      'RATE_LIMIT_LONGEST_PENALTY_SECONDS',
    ],
    read: missSettings,
  },
  { names: ['RATE_LIMIT_EXEMPT_NETWORKS'], read: exemptNetworks },
  { names: ['PUBLISH_GRACE_SECONDS'], read: publishGraceSeconds },
  { names: ['EXPORT_POLICY'], read: exportPolicy },
  { names: ['DEFAULT_TAG'], read: defaultTag },
  { names: ['DEPRECATIONS'], read: deprecatedUses },
  { names: ['ID_SPACE_SIZE'], read: idSpaceSize },
  { names: ['SIMULATED_KV_LAG_SECONDS'], read: simulatedKvLagSeconds },
]
