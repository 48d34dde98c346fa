import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

describe('derived files', () => {
  it('the committed worker-configuration.d.ts is what `npm run types` makes of wrangler.toml', () => {
    // vitest.config.ts turns off wrangler's reading of env files for the suite; `npm run types`
    // reads the secrets' names from .dev.vars.example, as a developer runs it.
    const { CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: _suiteOnly, ...developerEnv } = process.env
    const check = spawnSync('npm', ['run', '--silent', 'types:check'], {
      encoding: 'utf8',
      env: {
        ...developerEnv,
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        // vitest.config.ts quiets wrangler for the suite; its verdict is a log line.
        WRANGLER_LOG: 'log',
      },
    })
    expect(check.stdout + check.stderr).toContain('up to date')
    expect(check.status).toBe(0)
  })
})
