import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { API_VERSION } from '../../src/openapi/document'

describe('derived files', () => {
  it('the committed worker-configuration.d.ts is what `npm run types` makes of wrangler.toml', () => {
    const check = spawnSync('npm', ['run', '--silent', 'types:check'], {
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true' },
    })
    expect(check.stdout + check.stderr).toContain('up to date')
    expect(check.status).toBe(0)
  })

  it('the OpenAPI document carries the package version', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
    expect(API_VERSION).toBe(pkg.version)
  })
})
