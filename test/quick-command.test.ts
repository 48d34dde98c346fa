import { describe, expect, it } from 'vitest'
import { ServiceFailure } from '../src/http/errors'
import { quickCommand, quickCommandPrefix } from '../src/publish/quick-command'

const commandFor = (prefix: string | null) => quickCommand(quickCommandPrefix(prefix), '482913')

describe('the quick command', () => {
  it('is /model spawn <id> by default', () => {
    expect(commandFor(null)).toBe('/model spawn 482913')
    expect(commandFor('   ')).toBe('/model spawn 482913')
  })

  it('puts the user prefix in place of model spawn, with one leading slash', () => {
    expect(commandFor('mm spawn')).toBe('/mm spawn 482913')
    expect(commandFor('/mm spawn')).toBe('/mm spawn 482913')
    expect(commandFor('  mm spawn  ')).toBe('/mm spawn 482913')
    expect(commandFor('//worldedit thing')).toBe('//worldedit thing 482913')
  })

  it('refuses control characters and line breaks inside the prefix', () => {
    for (const prefix of ['mm\nspawn', 'mm\u0000spawn', 'mm\u007fspawn', 'a\tb']) {
      expect(() => quickCommandPrefix(prefix)).toThrow(ServiceFailure)
    }
  })

  it('fits in a chat line of 256 characters', () => {
    expect(commandFor('x'.repeat(248))).toHaveLength(256)
    expect(() => quickCommandPrefix('x'.repeat(249))).toThrow(ServiceFailure)
  })
})
