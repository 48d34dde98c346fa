/**
 * The client's `checkExportSafety` given what `getExport` returns: the whole document is checked,
 * and `content` alone (the likeliest mistake) is refused with a message saying what to pass,
 * never answered with a verdict about a `member` the export does not hold.
 */
import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { checkExportSafety, getExport, type FetchLike } from '../../src/client'
import { FIXTURES } from '../support/fixtures'
import { BASE, callWithEnv, storeExport } from '../support/helpers'

const ID = '241235'
const FIXTURE = FIXTURES['reading-41-displays']!

let ip = 10
const toWorker: FetchLike = (url, init) =>
  callWithEnv({}, url.slice(BASE.length), {
    ...init,
    headers: { ...init.headers, 'CF-Connecting-IP': `192.0.2.${++ip}` },
  })

afterEach(async () => {
  await reset()
})

const WHAT_TO_PASS = /takes the whole export document.*pass \{ content \} instead/

describe('checkExportSafety with what getExport returns', () => {
  it('finds { content } safe, with and without the tag', async () => {
    await storeExport(ID, FIXTURE)
    const { content, servedTag } = await getExport(ID, {
      baseUrl: BASE,
      tag: 'gate_1',
      fetch: toWorker,
    })
    expect(checkExportSafety({ content })).toEqual({ safe: true })
    expect(checkExportSafety({ content }, { tag: servedTag! })).toEqual({ safe: true })
  })

  it('refuses content alone, as an object, as text and as bytes, saying to pass { content }', async () => {
    await storeExport(ID, FIXTURE)
    const { content } = await getExport(ID, { baseUrl: BASE, tag: 'gate_1', fetch: toWorker })
    const text = JSON.stringify(content)
    for (const wrong of [content, text, new TextEncoder().encode(text)]) {
      expect(() => checkExportSafety(wrong)).toThrow(TypeError)
      expect(() => checkExportSafety(wrong, { tag: 'gate_1' })).toThrow(WHAT_TO_PASS)
    }
  })

  it('still refuses a stray member beside content, as the service does at publish', () => {
    const document = { ...JSON.parse(FIXTURE), datapack: {} }
    expect(checkExportSafety(document)).toMatchObject({
      safe: false,
      reason: 'member',
      path: 'datapack',
    })
    expect(checkExportSafety(JSON.stringify(document))).toMatchObject({
      safe: false,
      path: 'datapack',
    })
  })

  it('still answers an unsafe export inside content with its verdict', () => {
    const document = { content: { commands: ['op @a'] } }
    const verdict = checkExportSafety(document)
    expect(verdict.safe).toBe(false)
    expect(() => checkExportSafety(document)).not.toThrow()
  })
})
