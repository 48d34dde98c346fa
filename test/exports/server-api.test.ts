import { reset } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { READ_CHUNK_BYTES, WHOLE_READ_MAX_BYTES } from '../support/documented-limits'
import { exportKey } from '../support/storage-layout'
import { FIXTURES, PLACEHOLDER, syntheticExport } from '../support/fixtures'
import { BASE, call, callWithEnv, storeExport } from '../support/helpers'
import { errorOf } from '../support/publishing'

const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root","[MODELSERVERTAG]_0"],"n":1.0,"e":1e2}}'

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

describe('GET /server-api', () => {
  it('returns the export with every placeholder replaced by the tag', async () => {
    await storeExport('241235', DOC)
    const res = await call('/server-api?id=241235&tag=my_model_1')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(
      '{"content":{"Tags":["my_model_1_root","my_model_1_0"],"n":1.0,"e":1e2}}',
    )
  })

  it('answers with JSON headers, an exact Content-Length and no caching', async () => {
    await storeExport('241235', DOC)
    const res = await call('/server-api?id=241235&tag=abc')
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const body = new Uint8Array(await res.arrayBuffer())
    expect(res.headers.get('content-length')).toBe(String(body.byteLength))
  })

  it.each(Object.keys(FIXTURES))(
    'reproduces the original bytes of %s with tag=bde',
    async (name) => {
      const published = FIXTURES[name]!
      await storeExport('100001', published)
      const res = await call('/server-api?id=100001&tag=bde')
      expect(res.status).toBe(200)
      const body = await res.text()
      expect(body).not.toContain(PLACEHOLDER)
      expect(body).toBe(published.replaceAll(PLACEHOLDER, 'bde'))
      expect(res.headers.get('content-length')).toBe(
        String(new TextEncoder().encode(body).byteLength),
      )
    },
  )

  it('leaves the stored export unchanged and serves other tags from it', async () => {
    await storeExport('241235', DOC)
    const first = await (await call('/server-api?id=241235&tag=one')).text()
    const second = await (await call('/server-api?id=241235&tag=two')).text()
    expect(first).toContain('"one_root"')
    expect(second).toContain('"two_root"')
    expect(await env.EXPORTS.get(exportKey('241235'))).toBe(DOC)
  })

  it('substitutes in object keys and in escaped placeholders', async () => {
    const doc =
      '{"content":{"[MODELSERVERTAG]_key":"\\u005BMODELSERVERTAG\\u005d_x","y":"[\\u004dODELSERVERTAG]"}}'
    await storeExport('241235', doc)
    const res = await call('/server-api?id=241235&tag=t')
    expect(JSON.parse(await res.text())).toEqual({ content: { t_key: 't_x', y: 't' } })
  })

  it('keeps numbers, whitespace, key order and raw UTF-8 as published', async () => {
    const doc =
      '{ "content" : {\n  "z": 12345678901234567890, "a": 1.0,\t"m": 1e2, "t": "🧱[MODELSERVERTAG]é" } }'
    await storeExport('241235', doc)
    const res = await call('/server-api?id=241235&tag=T')
    expect(await res.text()).toBe(doc.replace(PLACEHOLDER, 'T'))
  })

  it('serves a 20 MB export in full', async () => {
    const doc = syntheticExport(20 * 1024 * 1024, 3)
    await storeExport('555555', doc)
    const res = await call('/server-api?id=555555&tag=big_tag')
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body.length).toBe(doc.replaceAll(PLACEHOLDER, 'big_tag').length)
    expect(body).toBe(doc.replaceAll(PLACEHOLDER, 'big_tag'))
  })
})

describe('the two read paths: read whole, and streamed', () => {
  const escapedPlaceholder = '\\u005BMODELSERVERTAG\\u005d'
  it.each([
    ['read whole', WHOLE_READ_MAX_BYTES / 2, 'raw'],
    ['read whole', WHOLE_READ_MAX_BYTES / 2, 'escaped'],
    ['streamed', WHOLE_READ_MAX_BYTES * 2, 'raw'],
    ['streamed', WHOLE_READ_MAX_BYTES * 2, 'escaped'],
  ])('%s (%i bytes), %s placeholders, with short and long tags', async (_, bytes, kind) => {
    const raw = syntheticExport(bytes)
    // One escaped spelling sends the export through the JSON splicer instead of the placeholder splicer.
    const doc = kind === 'raw' ? raw : raw.replace(PLACEHOLDER, escapedPlaceholder)
    await storeExport('241235', doc)
    for (const tag of ['x', 'Z'.repeat(100)]) {
      const res = await call(`/server-api?id=241235&tag=${tag}`)
      expect(res.status).toBe(200)
      const body = await res.text()
      expect(body === raw.replaceAll(PLACEHOLDER, tag)).toBe(true)
      expect(res.headers.get('content-length')).toBe(String(body.length))
    }
  })
})

describe('the memory a read holds', () => {
  // 65,000 placeholders: a 1,040,020-byte value, read whole with a short tag; a 100-character
  // tag makes it 6,500,020 bytes, which is streamed instead.
  const DENSE = `{"content":{"a":"${PLACEHOLDER.repeat(65_000)}"}}`

  it('streams an export whose substituted body outgrows the whole read', async () => {
    await storeExport('241235', DENSE)
    const tag = 'Z'.repeat(100)
    const res = await call(`/server-api?id=241235&tag=${tag}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe('6500020')
    expect((await res.text()) === DENSE.replaceAll(PLACEHOLDER, tag)).toBe(true)
  })

  it('reads at most 256 KiB at a time, substituted, whatever the tag', async () => {
    // 70,000 placeholders: over 1 MiB stored, so streamed with any tag, short or long.
    const doc = `{"content":{"a":"${PLACEHOLDER.repeat(70_000)}"}}`
    await storeExport('241236', doc)
    const bytes = new TextEncoder().encode(doc)
    for (const tag of ['x', 'Z'.repeat(16), 'Z'.repeat(17), 'Z'.repeat(100)]) {
      const reads: number[] = []
      const res = await callWithEnv(
        { EXPORTS: servingBytes(bytes, reads) },
        `/server-api?id=241236&tag=${tag}`,
      )
      expect(res.status).toBe(200)
      expect((await res.text()) === doc.replaceAll(PLACEHOLDER, tag)).toBe(true)
      expect(reads.reduce((a, b) => a + b, 0)).toBe(bytes.length)
      // The response reaches the caller in the platform's own pieces, so what the pump holds
      // shows in its reads: each, made only of placeholders, substituted still fits.
      const growth = Math.max(PLACEHOLDER.length, tag.length) / PLACEHOLDER.length
      expect(Math.max(...reads) * growth).toBeLessThanOrEqual(READ_CHUNK_BYTES)
      expect(Math.max(...reads) * growth).toBeGreaterThan(READ_CHUNK_BYTES / 2)
    }
  })

  it('reads the same export whole with a tag that keeps it under 1 MiB', async () => {
    await storeExport('241235', DENSE)
    const res = await call('/server-api?id=241235&tag=x')
    expect(res.headers.get('content-length')).toBe(String(1_040_020 - 65_000 * 15))
    expect(await res.text()).toBe(DENSE.replaceAll(PLACEHOLDER, 'x'))
  })
})

describe('tag rules', () => {
  const cases: [string, string][] = [
    ['', 'model'],
    ['tag=', 'model'],
    ['tag=%20%21%C3%A9', 'model'],
    ['tag=My-Tag_01', 'My-Tag_01'],
    ['tag=a%20b!c%C3%A9d%F0%9F%A7%B1e', 'abcde'],
    ['tag=%22%5C%0D%0Ax', 'x'],
    ['tag=%FF%FEok', 'ok'],
    // A `%` without two hex digits is a literal `%`, dropped like any other character.
    ['tag=%ZZ', 'ZZ'],
    ['tag=%2%41b', '2Ab'],
    ['tag=a%', 'a'],
    ['tag=%E2%80%AE', 'model'],
    [`tag=${'x'.repeat(150)}`, 'x'.repeat(100)],
    [`tag=${'!'.repeat(50)}${'y'.repeat(120)}`, 'y'.repeat(100)],
    ['tag=first&tag=second', 'first'],
    ['unknown=1&tag=kept&other', 'kept'],
  ]
  it.each(cases)('query "%s" substitutes "%s"', async (query, expected) => {
    await storeExport('241235', '{"content":{"t":"[MODELSERVERTAG]"}}')
    const res = await call(`/server-api?id=241235&${query}`)
    expect(res.status).toBe(200)
    expect(JSON.parse(await res.text())).toEqual({ content: { t: expected } })
  })

  it('takes the first of repeated id parameters', async () => {
    await storeExport('241235', DOC)
    expect((await call('/server-api?id=241235&id=999999')).status).toBe(200)
    expect((await call('/server-api?id=abc&id=241235')).status).toBe(400)
  })
})

describe('ids', () => {
  it.each([
    ['', 'missing'],
    ['id=', 'empty'],
    ['id=12345', 'five digits'],
    ['id=1234567', 'seven digits'],
    ['id=12345a', 'a letter'],
    ['id=%D9%A1%D9%A2%D9%A3%D9%A4%D9%A5%D9%A6', 'Arabic-Indic digits'],
    ['id=+123456', 'a plus sign'],
    ['id=%20123456', 'a space'],
    ['id=-12345', 'a minus sign'],
  ])('answers 400 invalid_id for "%s" (%s)', async (query) => {
    const res = await call(`/server-api?${query}`)
    expect(res.status).toBe(400)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(await res.json()).toEqual({
      error: expect.stringMatching(/six/),
      code: 'invalid_id',
    })
  })

  it('answers 404 not_found for an id that was never published', async () => {
    const res = await call('/server-api?id=999999')
    expect(res.status).toBe(404)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect((await errorOf(res)).code).toBe('not_found')
  })
})

describe('lifetime', () => {
  it('tells the seconds left and never extends them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const publishedAt = Date.now()
    await storeExport('241235', DOC, { publishedAt, ttlSeconds: 600 })
    expect((await call('/server-api?id=241235')).headers.get('x-export-expires-in')).toBe('600')
    vi.setSystemTime(publishedAt + 250_500)
    expect((await call('/server-api?id=241235')).headers.get('x-export-expires-in')).toBe('349')
    vi.setSystemTime(publishedAt + 599_999)
    const last = await call('/server-api?id=241235')
    expect(last.status).toBe(200)
    expect(last.headers.get('x-export-expires-in')).toBe('0')
  })

  it('stops serving exactly at the end of the lifetime, though KV still holds the value', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const publishedAt = Date.now()
    await storeExport('241235', DOC, { publishedAt, ttlSeconds: 600 })
    vi.setSystemTime(publishedAt + 600_000)
    const res = await call('/server-api?id=241235')
    expect([404, 410]).toContain(res.status)
    expect(await env.EXPORTS.get(exportKey('241235'))).toBe(DOC)
  })
})

describe('HEAD /server-api', () => {
  it('answers the headers of a GET without a body', async () => {
    await storeExport('241235', DOC)
    const get = await call('/server-api?id=241235&tag=abc')
    const head = await call('/server-api?id=241235&tag=abc', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    for (const name of ['content-type', 'content-length', 'cache-control', 'x-export-expires-in']) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name))
    }
  })

  it('answers errors with status and headers only', async () => {
    const res = await call('/server-api?id=1', { method: 'HEAD' })
    expect(res.status).toBe(400)
    expect(await res.text()).toBe('')
  })

  // The rate-limit headers count each request, and a 405 comes from another method.
  const VARYING = new Set(['x-ratelimit-remaining', 'ratelimit'])
  const headersOf = (res: Response) =>
    Object.fromEntries([...res.headers].filter(([name]) => !VARYING.has(name)))

  let client = 0
  it.each([
    ['a 200', '/server-api?id=241235&tag=abc', 200, {}],
    ['a 400', '/server-api?id=1', 400, {}],
    ['a 404', '/server-api?id=999999', 404, {}],
    ['a 410', '/server-api?id=241235', 410, {}],
    ['a 429', '/server-api?id=241235', 429, { RATE_LIMIT_SHORT: '1/60' }],
  ] as const)(
    'answers %s with the headers of the GET, Content-Length and encoding included',
    async (_, path, status, vars) => {
      const expired = status === 410
      await storeExport('241235', DOC, { publishedAt: Date.now() - (expired ? 5000 : 0) })
      if (expired) vi.setSystemTime(Date.now() + 700_000)
      for (const acceptEncoding of [null, 'gzip', 'br;q=1, gzip;q=0.5']) {
        const headers: Record<string, string> = { 'CF-Connecting-IP': `198.51.100.${++client}` }
        if (acceptEncoding) headers['Accept-Encoding'] = acceptEncoding
        if (status === 429) await callWithEnv(vars, path, { headers })
        const get = await callWithEnv(vars, path, { headers })
        const head = await callWithEnv(vars, path, { method: 'HEAD', headers })
        expect([get.status, head.status]).toEqual([status, status])
        expect(headersOf(head)).toEqual(headersOf(get))
        expect(head.headers.get('vary')).toBe('Accept-Encoding')
        const length = (await get.arrayBuffer()).byteLength
        if (acceptEncoding === null) {
          expect(head.headers.get('content-length')).toBe(String(length))
        } else {
          expect(head.headers.get('content-length')).toBeNull()
          const coding = acceptEncoding.startsWith('br') ? 'br' : 'gzip'
          expect(head.headers.get('content-encoding')).toBe(coding)
        }
      }
    },
  )
})

describe('compression', () => {
  it.each([
    [null, null],
    ['', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'gzip'],
    ['deflate, br, gzip', 'br'],
    ['gzip;q=0.5, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['identity, gzip', null],
    ['*', null],
    ['deflate', null],
    ['GZIP', 'gzip'],
    ['Br;Q=0.5, deflate', 'br'],
    ['gzip;q=0', null],
    ['identity;q=0', 'identity'],
    ['*;q=0', 'identity'],
    ['deflate, identity;q=0', 'identity'],
    ['br;q=0, gzip;q=0, identity;q=0', 'identity'],
    ['identity;q=0, gzip', 'gzip'],
    ['GZIP, identity;q=0', 'identity'],
  ])('with Accept-Encoding %j answers Content-Encoding %j', async (accept, coding) => {
    await storeExport('241235', DOC)
    const headers: Record<string, string> = accept === null ? {} : { 'Accept-Encoding': accept }
    const res = await call('/server-api?id=241235&tag=abc', { headers })
    expect(res.headers.get('content-encoding')).toBe(coding)
    expect(res.headers.get('content-length') === null).toBe(coding === 'gzip' || coding === 'br')
  })

  it('follows the client Accept-Encoding Cloudflare passes in cf, not the header it rewrites', async () => {
    await storeExport('241235', DOC)
    const request = new Request(`${BASE}/server-api?id=241235&tag=abc`, {
      headers: { 'Accept-Encoding': 'br, gzip' },
    })
    const res = await exports.default.fetch(
      new Request(request, { cf: { clientAcceptEncoding: 'gzip' } } as RequestInit),
    )
    expect(res.headers.get('content-encoding')).toBe('gzip')
  })
})

describe('OPTIONS and CORS', () => {
  const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': '*',
  }

  it('answers a preflight with 204 without touching storage', async () => {
    const failingKv = {
      get: () => Promise.reject(new Error('must not be called')),
      getWithMetadata: () => Promise.reject(new Error('must not be called')),
    } as unknown as KVNamespace
    const res = await callWithEnv({ EXPORTS: failingKv }, '/server-api?id=241235', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://example.com',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-custom',
      },
    })
    expect(res.status).toBe(204)
    expect(Object.fromEntries(res.headers)).toMatchObject(CORS)
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
    expect(res.headers.has('access-control-allow-credentials')).toBe(false)
  })

  it.each([
    ['a 200', '/server-api?id=241235', 'GET'],
    ['a HEAD', '/server-api?id=241235', 'HEAD'],
    ['a 400', '/server-api?id=x', 'GET'],
    ['a 404', '/server-api?id=999999', 'GET'],
    ['a 405', '/server-api?id=241235', 'POST'],
  ])('puts CORS headers on %s', async (_, path, method) => {
    await storeExport('241235', DOC)
    const res = await call(path, { method, headers: { Origin: 'https://example.com' } })
    expect(Object.fromEntries(res.headers)).toMatchObject(CORS)
    const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase()
    for (const name of [
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-export-expires-in',
    ]) {
      expect(exposed).toContain(name)
    }
    expect(res.headers.has('access-control-allow-credentials')).toBe(false)
  })
})

describe('paths and methods', () => {
  it.each(['GET', 'HEAD', 'OPTIONS', 'POST'])(
    'serves /server-api/ with a trailing slash like /server-api for %s, without a redirect',
    async (method) => {
      await storeExport('241235', DOC)
      const plain = await call('/server-api?id=241235&tag=x', { method })
      const slash = await call('/server-api/?id=241235&tag=x', { method, redirect: 'manual' })
      expect(slash.status).toBe(plain.status)
      expect(slash.headers.get('location')).toBeNull()
      expect(await slash.text()).toBe(await plain.text())
    },
  )

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 and Allow', async (method) => {
    const res = await call('/server-api?id=241235', { method })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect((await errorOf(res)).code).toBe('method_not_allowed')
  })

  it('answers other paths with a JSON 404', async () => {
    const res = await call('/nothing-here')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect((await errorOf(res)).code).toBe('not_found')
  })
})

/**
 * The exports KV, but each stored value is served from `bytes` by a byte stream that notes how
 * many bytes each of the Worker's reads asked for in `reads`.
 */
function servingBytes(bytes: Uint8Array, reads: number[]): KVNamespace {
  return {
    async getWithMetadata(key: string, options: KVNamespaceGetOptions<'stream'>) {
      const stored = await env.EXPORTS.getWithMetadata(key, options)
      await stored.value?.cancel()
      let offset = 0
      const value = new ReadableStream({
        type: 'bytes',
        pull(controller) {
          const view = controller.byobRequest!.view! as Uint8Array
          const n = Math.min(view.byteLength, bytes.length - offset)
          view.set(bytes.subarray(offset, offset + n))
          offset += n
          reads.push(n)
          controller.byobRequest!.respond(n)
          if (offset === bytes.length) controller.close()
        },
      })
      return { ...stored, value }
    },
  } as unknown as KVNamespace
}
