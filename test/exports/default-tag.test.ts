/** The `DEFAULT_TAG` setting: the tag of a request without one, checked like a tag. */
import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defaultTag } from '../../src/exports'
import { callWithEnv, storeExport } from '../support/helpers'

const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_0"]}}'

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

describe('DEFAULT_TAG', () => {
  it('is model when unset, as the API says', () => {
    expect(defaultTag({})).toBe('model')
  })

  it.each(['bde', 'model', 'A-z_09', 'x'.repeat(100)])('accepts the tag %s as it is', (tag) => {
    expect(defaultTag({ DEFAULT_TAG: tag })).toBe(tag)
  })

  it.each(['', 'bad tag!', 'bde ', 'é', 'x'.repeat(101), 'a\u202Eb'])(
    'refuses %j with a message naming the setting, instead of sanitizing it',
    (value) => {
      expect(() => defaultTag({ DEFAULT_TAG: value })).toThrow(
        new Error(
          `DEFAULT_TAG must be a tag: 1 to 100 ASCII letters, digits, "_" or "-" (for example "model" or "bde"); got ${JSON.stringify(value)}.`,
        ),
      )
    },
  )

  it('fills a request without a tag, or with nothing left of it, and no other', async () => {
    await storeExport('241235', DOC)
    const read = async (query: string) =>
      (await callWithEnv({ DEFAULT_TAG: 'bde' }, `/server-api?id=241235${query}`)).text()
    expect(await read('')).toBe('{"content":{"Tags":["bde_0"]}}')
    expect(await read('&tag=')).toBe('{"content":{"Tags":["bde_0"]}}')
    expect(await read('&tag=%20!')).toBe('{"content":{"Tags":["bde_0"]}}')
    expect(await read('&tag=gate')).toBe('{"content":{"Tags":["gate_0"]}}')
  })
})
