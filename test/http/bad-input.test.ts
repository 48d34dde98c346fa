/**
 * Bad input through HTTP, as anyone on the internet can send it: each case gets its expected
 * status, and none a 5xx. Cases already in server-api.test.ts and editor-api.test.ts are not
 * repeated here.
 */
import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_EXPORT_BYTES } from '../../src/contract/wire'
import { call, callWithEnv, storeExport } from '../support/helpers'
import { errorOf, published, publishWith, SMALL_EXPORT, TOKEN } from '../support/publishing'

const ID = '241235'
const DOC = '{"content":{"t":"[MODELSERVERTAG]","Tags":["[MODELSERVERTAG]_root"]}}'
/** A one-ID space: any ID a refused publish leaked would make the next publish answer 503. */
const TINY = { ID_SPACE_SIZE: '1' }
/**
 * A deployment without the display-model check: what these tests publish is JSON of any shape,
 * which the check refuses in `content` (every member there is typed).
 */
const UNCHECKED = { EXPORT_POLICY: 'off' }

/** The tag a GET substituted, read back from the parsed body. */
async function substitutedTag(res: Response): Promise<string> {
  expect(res.status).toBe(200)
  const body = JSON.parse(await res.text()) as { content: { t: string; Tags: string[] } }
  expect(body.content.Tags).toEqual([`${body.content.t}_root`])
  return body.content.t
}

/** Every header as `name: value` lines, to look for anything a request smuggled in. */
function headerLines(res: Response): string[] {
  return [...res.headers].map(([name, value]) => `${name}: ${value}`)
}

/** The bytes as a stream of 1 MiB chunks: no Content-Length, so the limit is counted as they come. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(at, (at += 1 << 20)))
    },
  })
}

/** `bytes` as a byte stream (BYOB reads fill the reader's buffer), `chunk` bytes a pull at most. */
function byteStreamOf(bytes: Uint8Array, chunk = 1 << 20): ReadableStream<Uint8Array> {
  let at = 0
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      const request = controller.byobRequest
      if (at >= bytes.length) {
        controller.close()
        request?.respond(0)
        return
      }
      const view = request?.view
      if (!request || !view) return controller.enqueue(bytes.slice(at, (at += chunk)))
      const n = Math.min(view.byteLength, chunk, bytes.length - at)
      new Uint8Array(view.buffer, view.byteOffset, n).set(bytes.subarray(at, at + n))
      at += n
      request.respond(n)
    },
  })
}

async function storedKeys(): Promise<string[]> {
  return (await env.EXPORTS.list()).keys.map((key) => key.name)
}

afterEach(() => reset())

describe('GET /server-api with oversized query strings', () => {
  it.each([
    ['a 16 KB tag', `tag=${'Ab_-9'.repeat(3300)}`, 'Ab_-9'.repeat(20)],
    [
      '16 KB of percent-encoded junk',
      `tag=${'%%G1%E2%82%C0%AF%ED%A0%80'.repeat(660)}`,
      'G1'.repeat(50),
    ],
    ['4,000 other parameters', `${'p=1&'.repeat(4000)}tag=kept`, 'kept'],
  ])('answers 200 to %s, with at most 100 characters of tag', async (_, query, expected) => {
    await storeExport(ID, DOC)
    const path = `/server-api?id=${ID}&${query}`
    expect(path.length).toBeGreaterThan(16_000)
    const tag = await substitutedTag(await call(path))
    expect(tag).toBe(expected.slice(0, 100))
  })

  it('answers 400 to a 16 KB id', async () => {
    const res = await call(`/server-api?id=${'1'.repeat(16_384)}`)
    expect(res.status).toBe(400)
    expect((await errorOf(res)).code).toBe('invalid_id')
  })
})

describe('GET /server-api with a tag that is not clean text', () => {
  it.each([
    ['a lone %', 'ok%', 'ok'],
    ['a % before non-hex', 'a%G1b', 'aG1b'],
    ['a NUL byte', 'a%00b', 'ab'],
    ['an overlong UTF-8 slash', 'a%C0%AFb', 'ab'],
    ['a UTF-16 surrogate in UTF-8', 'a%ED%A0%80b', 'ab'],
    ['a cut-short UTF-8 sequence', 'a%E2%82', 'a'],
    ['raw non-ASCII', 'a\u00e9\u4e2d\ud83e\uddf1b', 'ab'],
    ['only junk', '%FF%FE%FD', 'model'],
  ])('substitutes the allowed characters only, for %s', async (_, tag, expected) => {
    await storeExport(ID, DOC)
    expect(await substitutedTag(await call(`/server-api?id=${ID}&tag=${tag}`))).toBe(expected)
  })

  it('lets no quote, backslash, CR or LF reach a header or break the JSON', async () => {
    await storeExport(ID, DOC)
    const clean = await call(`/server-api?id=${ID}&tag=x`, { method: 'HEAD' })
    const injection = encodeURIComponent('x"\\\r\nSet-Cookie: a=b\r\n\r\n","evil":"1\\')
    for (const method of ['HEAD', 'GET']) {
      const res = await call(`/server-api?id=${ID}&tag=${injection}`, { method })
      expect(res.status).toBe(200)
      expect([...res.headers.keys()]).toEqual([...clean.headers.keys()])
      // The sanitized tag is said in X-Export-Tag: letters only, on one line of its own.
      for (const line of headerLines(res)) {
        if (line.startsWith('x-export-tag: ')) expect(line).toBe('x-export-tag: xSet-Cookieabevil1')
        else expect(line).not.toMatch(/[\r\n]|evil|a=b/)
      }
      if (method === 'GET') expect(await substitutedTag(res)).toBe('xSet-Cookieabevil1')
    }
  })
})

describe('GET /server-api with an id that only looks like one', () => {
  it.each([
    ['Devanagari digits', '%E0%A5%A7%E0%A5%A8%E0%A5%A9%E0%A5%AA%E0%A5%AB%E0%A5%AC'],
    ['fullwidth digits', '%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94%EF%BC%95%EF%BC%96'],
    [
      'mathematical bold digits',
      '%F0%9D%9F%8F%F0%9D%9F%90%F0%9D%9F%91%F0%9D%9F%92%F0%9D%9F%93%F0%9D%9F%94',
    ],
    ['an encoded plus sign', '%2B241235'],
    ['a trailing space', '241235%20'],
    ['a space inside', '241%20235'],
    ['a plus inside', '241+235'],
    ['a trailing NUL', '241235%00'],
    ['a trailing line feed', '241235%0A'],
    ['a leading zero', '0241235'],
    ['an exponent', '2.41235e5'],
    ['hex', '0x3AE53'],
  ])('answers 400 invalid_id to %s', async (_, id) => {
    await storeExport(ID, DOC)
    const res = await call(`/server-api?id=${id}`)
    expect(res.status).toBe(400)
    expect((await errorOf(res)).code).toBe('invalid_id')
  })
})

describe('GET /server-api with headers it does not use', () => {
  it.each(['bytes=0-3', 'bytes=-5', 'bytes=100000-', 'bytes=0-1,5-9', 'lines=1-2', 'bytes=junk'])(
    'ignores Range: %s and answers 200 with the whole body',
    async (range) => {
      await storeExport(ID, DOC)
      const res = await call(`/server-api?id=${ID}&tag=r`, { headers: { Range: range } })
      expect(res.status).toBe(200)
      expect(res.headers.has('content-range')).toBe(false)
      const body = await res.text()
      expect(body).toBe(DOC.replaceAll('[MODELSERVERTAG]', 'r'))
      expect(res.headers.get('content-length')).toBe(String(body.length))
    },
  )

  it.each([
    'text/html',
    'application/xml',
    '*/*;q=0',
    'application/json;q=0, text/plain',
    '',
    'garbage;;,q=x',
  ])('answers JSON whatever the Accept header says: %j', async (accept) => {
    await storeExport(ID, DOC)
    for (const path of [`/server-api?id=${ID}`, '/server-api?id=999999', '/server-api?id=x']) {
      const res = await call(path, { headers: { Accept: accept } })
      expect(res.status).toBeLessThan(500)
      expect(res.status).not.toBe(406)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      JSON.parse(await res.text())
    }
  })

  it('counts a CF-Connecting-IP that is no address under its own key, never failing', async () => {
    for (const ip of ['not an address', 'x'.repeat(4096), '999.1.1.1', '::g', 'fe80::1%eth0']) {
      const res = await call('/server-api?id=999999', { headers: { 'CF-Connecting-IP': ip } })
      expect(res.status).toBe(404)
      expect(res.headers.get('x-ratelimit-remaining')).toBe('119')
    }
  })
})

describe('other methods and paths', () => {
  it.each(['TRACE', 'PROPFIND', 'MKCOL', 'LOCK'])(
    'answers %s with 405 and Allow',
    async (method) => {
      const res = await call(`/server-api?id=${ID}`, { method })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
      expect((await errorOf(res)).code).toBe('method_not_allowed')
    },
  )

  it('answers a POST with a large body with 405, without storing it', async () => {
    const res = await call(`/server-api?id=${ID}`, { method: 'POST', body: 'x'.repeat(1 << 20) })
    expect(res.status).toBe(405)
    expect(await storedKeys()).toEqual([])
  })

  it.each([
    '/server-api/241235',
    '/server-api/extra?id=241235',
    '/SERVER-API?id=241235',
    '/server-api%00?id=241235',
    '/server-api;x?id=241235',
    '/editor-api',
    '/editor-api/exports/241235',
  ])('answers %s with a JSON 404', async (path) => {
    await storeExport(ID, DOC)
    const res = await call(path)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect((await errorOf(res)).code).toBe('not_found')
  })
})

describe('POST /editor-api/exports with bad input', () => {
  it('answers 400 invalid_json to every truncation of an export, storing nothing', async () => {
    for (let length = 0; length < SMALL_EXPORT.length; length++) {
      const res = await publishWith(TINY, SMALL_EXPORT.slice(0, length))
      expect(res.status, `cut at ${length}`).toBe(400)
      expect((await errorOf(res)).code).toBe('invalid_json')
    }
    expect(await storedKeys()).toEqual([])
    expect((await published(TINY)).id).toBe('100000')
  })

  it('answers 400 to 100,000 levels of nested objects', async () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)
    for (const body of [deep, `{"content":${deep}}`]) {
      const res = await publishWith(TINY, body)
      expect(res.status).toBe(400)
      expect((await errorOf(res)).code).toBe('invalid_export')
    }
  })

  it('publishes brackets inside strings, which are not nesting', async () => {
    const body = `{"content":{"a":"${'[{'.repeat(50_000)}"}}`
    expect((await publishWith(UNCHECKED, body)).status).toBe(201)
  })

  it.each([
    'application/json-patch+json',
    'text/json',
    'multipart/form-data; boundary=x',
    'application/json, text/plain',
    'json',
  ])('answers 415 to Content-Type %j', async (type) => {
    const res = await publishWith(TINY, SMALL_EXPORT, { headers: { 'Content-Type': type } })
    expect(res.status).toBe(415)
    expect((await errorOf(res)).code).toBe('unsupported_media_type')
  })

  it.each([
    ['a stream of chunks', streamOf],
    ['a byte stream', byteStreamOf],
  ])('answers 413 to %s one byte over the limit, and 201 at the limit', async (_, stream) => {
    const shell = '{"content":{"pad":""}}'
    for (const [extra, status] of [
      [1, 413],
      [0, 201],
    ] as const) {
      const pad = MAX_EXPORT_BYTES - shell.length + extra
      const bytes = new TextEncoder().encode(`{"content":{"pad":"${' '.repeat(pad)}"}}`)
      const res = await publishWith({ ...TINY, ...UNCHECKED }, stream(bytes))
      expect(res.status).toBe(status)
    }
  })

  it('publishes a byte stream without Content-Length in chunks of any size, byte for byte', async () => {
    const doc = new TextEncoder().encode(SMALL_EXPORT.replace('p-1', 'x'.repeat(200_000)))
    for (const chunk of [1, 7, 65_536, 300_000]) {
      const res = await publishWith(UNCHECKED, byteStreamOf(doc, chunk))
      expect(res.status).toBe(201)
      const { id } = await res.json<{ id: string }>()
      const stored = await env.EXPORTS.get(`export:${id}`, 'arrayBuffer')
      expect(new Uint8Array(stored!)).toEqual(doc)
    }
  })

  it.each([
    ['an empty header', ''],
    ['the scheme and a space', 'Bearer '],
    ['the scheme and spaces', 'Bearer    '],
    ['a tab instead of a space', `Bearer\t${TOKEN}`],
    ['a second word', `Bearer ${TOKEN} extra`],
    ['the token in upper case', `Bearer ${TOKEN.toUpperCase()}`],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['two schemes', `Bearer Bearer ${TOKEN}`],
  ])('answers 401 to %s', async (_, authorization) => {
    const res = await callWithEnv(TINY, '/editor-api/exports', {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: SMALL_EXPORT,
    })
    expect(res.status).toBe(401)
    expect((await errorOf(res)).code).toBe('unauthorized')
    expect(await storedKeys()).toEqual([])
  })

  it('stores and serves byte for byte a document with escaped control characters and lone surrogates', async () => {
    const document = '{"content":{"c":"\\u0000\\u001f\\ud800\\udfff\\u2028[MODELSERVERTAG]"}}'
    const { id } = await published(UNCHECKED, document)
    const res = await call(`/server-api?id=${id}&tag=t`)
    expect(await res.text()).toBe(document.replace('[MODELSERVERTAG]', 't'))
  })
})
