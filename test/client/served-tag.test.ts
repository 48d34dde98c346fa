/**
 * `ExportResult.servedTag`: the tag the service wrote into the export, read from `X-Export-Tag`
 * of the Worker's own answer, so a caller whose tag changed under sanitizing learns what its parts
 * carry.
 */
import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { getExport, type FetchLike } from '../../src/client'
import { BASE, callWithEnv, storeExport } from '../support/helpers'

const ID = '241235'
const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root"]}}'

let ip = 10
/** The client's requests, sent to the Worker, each from a client address of its own. */
const toWorker: FetchLike = (url, init) =>
  callWithEnv({}, url.slice(BASE.length), {
    ...init,
    headers: { ...init.headers, 'CF-Connecting-IP': `192.0.2.${++ip}` },
  })

afterEach(async () => {
  await reset()
})

describe('the typed client and the tag the service used', () => {
  it.each([
    ['my_model_1', 'my_model_1'],
    ['gate 1!', 'gate1'],
    ['modèle', 'modle'],
    ['x'.repeat(120), 'x'.repeat(100)],
    ['!!!', 'model'],
    [null, 'model'],
  ])('asked for %j, says the service used %j, the tag the content carries', async (tag, used) => {
    await storeExport(ID, DOC)
    const result = await getExport(ID, { baseUrl: BASE, tag, fetch: toWorker })
    expect(result.tag).toBe(tag)
    expect(result.servedTag).toBe(used)
    expect(result.content).toEqual({ Tags: [`${used}_root`] })
  })

  it('says it for the unique tag it makes itself, unchanged', async () => {
    await storeExport(ID, DOC)
    const result = await getExport(ID, { baseUrl: BASE, fetch: toWorker })
    expect(result.tag).toMatch(/^copy_[0-9a-f]{24}$/)
    expect(result.servedTag).toBe(result.tag)
  })

  it('is null when the answer does not say (a proxy dropped the header)', async () => {
    await storeExport(ID, DOC)
    const stripping: FetchLike = async (url, init) => {
      const response = await toWorker(url, init)
      const headers = new Headers(response.headers)
      headers.delete('X-Export-Tag')
      return new Response(response.body, { status: response.status, headers })
    }
    const result = await getExport(ID, { baseUrl: BASE, tag: 'a b', fetch: stripping })
    expect(result.servedTag).toBeNull()
    expect(result.content).toEqual({ Tags: ['ab_root'] })
  })
})
