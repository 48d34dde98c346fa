import { describe, expect, it } from 'vitest'
import { ServiceFailure } from '../../src/http'
import { quickCommand, quickCommandPrefix } from '../../src/publish/testing'

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

  it('refuses control, format and separator characters inside the prefix', () => {
    const prefixes = ['mm\nspawn', 'mm\u0000spawn', 'mm\u007fspawn', 'a\tb', 'mm\u0085spawn']
    prefixes.push('\u202emm spawn', 'mm\u200espawn', 'mm\u061cspawn', 'mm\u2028spawn')
    for (const prefix of prefixes) {
      expect(() => quickCommandPrefix(prefix)).toThrow(ServiceFailure)
    }
  })

  it('keeps other scripts, accents and emoji', () => {
    expect(commandFor('модель spawn é 😀')).toBe('/модель spawn é 😀 482913')
  })

  it('fits in a chat line of 256 characters', () => {
    expect(commandFor('x'.repeat(248))).toHaveLength(256)
    expect(() => quickCommandPrefix('x'.repeat(249))).toThrow(ServiceFailure)
  })
})
