/**
 * A deployment that announces a deprecation, started as `npm start` starts it with the setting
 * given as a var: the announcement reaches a caller over HTTP, and the typed client, imported by
 * its package name as a consumer would, tells its listener once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getExport, type DeprecationNotice } from 'export-retrieval-service/client'
import { publishExport } from './editor-publish'
import { startLocalService, type LocalService } from './local-service'

const DOCS = 'https://models.example.com/docs/api#compatibility'
const DEPRECATIONS = [
  { use: '/server-api?tag', deprecated: '2027-01-04', sunset: '2028-01-05', link: DOCS },
]

let service: LocalService
let id: string
beforeAll(async () => {
  service = await startLocalService({ DEPRECATIONS: JSON.stringify(DEPRECATIONS) })
  id = (await publishExport(service, '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}')).id
})
afterAll(() => service?.stop())

describe('a deprecated parameter, over HTTP', () => {
  it('is announced to a request that sends it, readable by scripts, and to no other', async () => {
    const used = await fetch(`${service.url}/server-api?id=${id}&tag=gate`)
    expect(used.status).toBe(200)
    expect(used.headers.get('deprecation')).toBe('@1799020800')
    expect(used.headers.get('sunset')).toBe('Wed, 05 Jan 2028 00:00:00 GMT')
    expect(used.headers.get('link')).toBe(`<${DOCS}>; rel="deprecation"`)
    const exposed = used.headers.get('access-control-expose-headers')!.split(', ')
    expect(exposed).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']))
    expect(await used.json()).toEqual({ content: { meta: { Tags: ['gate_root'] } } })

    const unused = await fetch(`${service.url}/server-api?id=${id}`)
    expect(unused.headers.get('deprecation')).toBeNull()
  })

  it('reaches the typed client once, and each result', async () => {
    const heard: DeprecationNotice[] = []
    const onDeprecation = (notice: DeprecationNotice) => void heard.push(notice)
    for (const tag of ['a', 'b']) {
      const result = await getExport(id, { baseUrl: service.url, tag, onDeprecation })
      expect(result.content).toEqual({ meta: { Tags: [`${tag}_root`] } })
      expect(result.deprecation?.sunsetAt).toEqual(new Date('2028-01-05T00:00:00Z'))
    }
    expect(heard).toHaveLength(1)
    expect(heard[0]).toMatchObject({ link: DOCS, deprecatedAt: new Date('2027-01-04T00:00:00Z') })
  })
})

describe('a setting that cannot work', () => {
  it('stops the service at startup, naming the setting', async () => {
    const bad = JSON.stringify([
      { use: '/server-api?tag', deprecated: '2027-01-04', sunset: 'soon' },
    ])
    await expect(startLocalService({ DEPRECATIONS: bad })).rejects.toThrow(
      'DEPRECATIONS entry 0: "sunset" must be a date, 2027-07-05 or 2027-07-05T12:00:00Z',
    )
  })
})
