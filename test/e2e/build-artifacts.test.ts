import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { API_VERSION } from '../../src/openapi/document'

describe('derived files', () => {
  it('the OpenAPI document carries the package version', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
    expect(API_VERSION).toBe(pkg.version)
  })
})
