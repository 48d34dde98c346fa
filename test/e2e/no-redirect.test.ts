/**
 * No redirect, ever, on the read route: every spelling plugins send reaches an answer from the
 * service itself, never a 3xx. When the editor's original service began to answer its read URL
 * with a 308, plugins on older builds broke; a plugin on a server is updated rarely, so the
 * spellings below are answered as they are, over real HTTP, the path sent byte for byte.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publishExport } from './editor-publish'
import { startLocalService, type LocalService } from './local-service'

const DOC = '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}'

let service: LocalService
let id: string
beforeAll(async () => {
  service = await startLocalService({ DEFAULT_TAG: 'bde' })
  id = (await publishExport(service, DOC)).id
})
afterAll(() => service?.stop())

interface Answer {
  status: number
  location: string | undefined
  body: string
}

let ipCounter = 0
/** One request with `path` as it is on the request line (fetch would normalise it). */
function ask(path: string, method = 'GET'): Promise<Answer> {
  const { hostname, port } = new URL(service.url)
  const headers = { 'CF-Connecting-IP': `203.0.113.${++ipCounter}` }
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')))
    req.on('error', reject)
    req.end()
  })
}

describe('every spelling of the read URL gets an answer, not a redirect', () => {
  it.each([
    ['the plain path', '/server-api?id=ID'],
    ['a trailing slash', '/server-api/?id=ID'],
    ['a tag', '/server-api?id=ID&tag=gate'],
    ['a trailing slash and a tag', '/server-api/?id=ID&tag=gate'],
    ['a doubled slash', '//server-api?id=ID'],
    ['a doubled slash and a trailing one', '//server-api/?id=ID'],
    ['a tag named in another case, ignored as unknown', '/server-api?id=ID&Tag=gate'],
  ])('serves the export to %s', async (_, spelling) => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await ask(spelling.replace('ID', id), method)
      expect(answer.status, `${method} ${spelling}`).toBe(200)
      expect(answer.location).toBeUndefined()
    }
    const body = (await ask(spelling.replace('ID', id))).body
    const tag = /&tag=/.test(spelling) ? 'gate' : 'bde'
    expect(JSON.parse(body)).toEqual({ content: { meta: { Tags: [`${tag}_root`] } } })
  })

  it.each([
    ['an ID named in another case', '/server-api?ID=ID', 400],
    ['an ID named in capitals and a slash', '/server-api/?Id=ID', 400],
    ['no query at all', '/server-api', 400],
    ['the path in capitals', '/SERVER-API?id=ID', 404],
    ['a dot segment', '/./server-api?id=ID', 200],
  ])('answers %s itself, with a JSON error or the export', async (_, spelling, status) => {
    const answer = await ask(spelling.replace('ID', id))
    expect(answer.status).toBe(status)
    expect(answer.location).toBeUndefined()
    expect(answer.body.startsWith('{')).toBe(true)
  })
})
