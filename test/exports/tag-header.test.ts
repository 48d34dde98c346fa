/**
 * `X-Export-Tag`: every 200 of GET and HEAD says the tag written into the export, so a caller
 * whose tag lost characters to sanitizing, or was cut, or was replaced by the default, reads what
 * its parts carry. Browsers may read it (CORS).
 */
import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { call, callWithEnv, storeExport } from '../support/helpers'

const ID = '241235'
const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root"]}}'

afterEach(async () => {
  await reset()
})

/** The tag the body carries: what `[MODELSERVERTAG]_root` became. */
async function tagInBody(response: Response): Promise<string> {
  const document = JSON.parse(await response.text()) as { content: { Tags: string[] } }
  return document.content.Tags[0]!.replace(/_root$/, '')
}

const cases: [string, string][] = [
  ['tag=my_model_1', 'my_model_1'],
  ['tag=My-Tag_01', 'My-Tag_01'],
  ['tag=gate%201!', 'gate1'],
  ['tag=caf%C3%A9', 'caf'],
  [`tag=${'x'.repeat(150)}`, 'x'.repeat(100)],
  ['tag=%20!', 'model'],
  ['', 'model'],
]

describe('X-Export-Tag', () => {
  it.each(cases)('GET with "%s" says "%s", the tag the body carries', async (query, tag) => {
    await storeExport(ID, DOC)
    const response = await call(`/server-api?id=${ID}&${query}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Export-Tag')).toBe(tag)
    expect(await tagInBody(response)).toBe(tag)
  })

  it.each(cases)('HEAD with "%s" says "%s", as the GET does', async (query, tag) => {
    await storeExport(ID, DOC)
    const response = await call(`/server-api?id=${ID}&${query}`, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Export-Tag')).toBe(tag)
  })

  it("says the deployment's DEFAULT_TAG when the tag asked for leaves nothing", async () => {
    await storeExport(ID, DOC)
    for (const query of ['', '&tag=', '&tag=%E2%80%AE']) {
      const response = await callWithEnv({ DEFAULT_TAG: 'bde' }, `/server-api?id=${ID}${query}`)
      expect(response.headers.get('X-Export-Tag')).toBe('bde')
      expect(await tagInBody(response)).toBe('bde')
    }
  })

  it('says it on a compressed answer too', async () => {
    await storeExport(ID, DOC)
    const response = await call(`/server-api?id=${ID}&tag=a.b`, {
      headers: { 'Accept-Encoding': 'gzip' },
    })
    expect(response.headers.get('X-Export-Tag')).toBe('ab')
  })

  it('is not on an answer without an export', async () => {
    for (const path of ['/server-api?id=999999&tag=a.b', '/server-api?id=12&tag=a.b']) {
      const response = await call(path)
      expect(response.status).not.toBe(200)
      expect(response.headers.get('X-Export-Tag')).toBeNull()
      await response.body?.cancel()
    }
  })

  it('is exposed to browser scripts, on answers and on preflights', async () => {
    await storeExport(ID, DOC)
    const answer = await call(`/server-api?id=${ID}&tag=a.b`, {
      headers: { Origin: 'https://plugin.example' },
    })
    const preflight = await call(`/server-api?id=${ID}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://plugin.example', 'Access-Control-Request-Method': 'GET' },
    })
    for (const response of [answer, preflight]) {
      const exposed = response.headers.get('Access-Control-Expose-Headers') ?? ''
      expect(exposed.split(/, */)).toContain('X-Export-Tag')
      await response.body?.cancel()
    }
  })
})
