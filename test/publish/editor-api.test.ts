import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_EXPORT_BYTES } from '../../src/contract/wire'
import { callWithEnv } from '../support/helpers'
import { FIXTURES } from '../support/fixtures'
import { errorOf, published, publishWith, SMALL_EXPORT, TOKEN } from '../support/publishing'

const MiB = 1024 * 1024
/** A one-ID space: any leaked ID would make the next publish answer 503 capacity. */
const TINY = { ID_SPACE_SIZE: '1' }

/** A body stream of `chunks` chunks of 1 MiB that counts how many were pulled. */
function countingStream(chunks: number): {
  body: ReadableStream<Uint8Array>
  pulled: () => number
} {
  let pulls = 0
  // highWaterMark 0: the stream pulls only when read, not to fill its queue in advance.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulls === chunks) return controller.close()
        pulls++
        controller.enqueue(new Uint8Array(MiB).fill(0x20))
      },
    },
    { highWaterMark: 0 },
  )
  return { body, pulled: () => pulls }
}

async function expectError(res: Response, status: number, code: string): Promise<string> {
  expect(res.status).toBe(status)
  expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
  expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
  const error = await errorOf(res)
  expect(error.code).toBe(code)
  return error.message
}

afterEach(() => reset())

describe('POST /editor-api/exports', () => {
  it('answers 201 with the ID, expiry, quick command and a Location, without CORS', async () => {
    const res = await publishWith({})
    expect(res.status).toBe(201)
    const body = await res.json<Record<string, unknown>>()
    expect(Object.keys(body).sort()).toEqual([
      'expiresAt',
      'expiresInSeconds',
      'id',
      'quickCommand',
    ])
    expect(res.headers.get('Location')).toBe(`/server-api?id=${body.id}`)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })

  it('publishes a real export that a GET with tag=bde turns back into the original', async () => {
    const document = FIXTURES['reading-41-displays']!
    const { id } = await published({}, document)
    const res = await callWithEnv({}, `/server-api?id=${id}&tag=bde`)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(document.replaceAll('[MODELSERVERTAG]', 'bde'))
  })

  it('accepts JSON media types with parameters and any letter case', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      expect(
        (await publishWith({}, SMALL_EXPORT, { headers: { 'Content-Type': type } })).status,
      ).toBe(201)
    }
  })

  it('uses the quick command prefix given, with one leading slash', async () => {
    for (const [prefix, expected] of [
      ['mm spawn', '/mm spawn'],
      ['  /mm summon  ', '/mm summon'],
      ['', '/model spawn'],
    ] as const) {
      const res = await publishWith({}, SMALL_EXPORT, {
        query: `quickCommandPrefix=${encodeURIComponent(prefix)}`,
      })
      const { id, quickCommand } = await res.json<{ id: string; quickCommand: string }>()
      expect(quickCommand).toBe(`${expected} ${id}`)
    }
  })

  it('does not exist when no token is configured', async () => {
    for (const token of [undefined, '']) {
      await expectError(await publishWith({ PUBLISH_TOKEN: token }), 404, 'not_found')
    }
  })

  it('answers 405 with Allow: POST to other methods', async () => {
    const res = await callWithEnv({}, '/editor-api/exports', {
      headers: { Authorization: `Bearer ${TOKEN}` },
    })
    await expectError(res, 405, 'method_not_allowed')
    expect(res.headers.get('Allow')).toBe('POST')
  })
})

describe('POST /editor-api/exports refuses', () => {
  it('a missing or wrong token with 401, before reading the body', async () => {
    for (const authorization of [null, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer', TOKEN]) {
      const { body, pulled } = countingStream(1)
      const headers: Record<string, string> = { 'Content-Type': 'text/plain' }
      if (authorization !== null) headers.Authorization = authorization
      const res = await callWithEnv({}, '/editor-api/exports', { method: 'POST', headers, body })
      await expectError(res, 401, 'unauthorized')
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer realm="editor-api"')
      expect(pulled()).toBe(0)
    }
  })

  it('a token in another letter case of the scheme is fine', async () => {
    const res = await publishWith({}, SMALL_EXPORT, {
      headers: { Authorization: `bearer ${TOKEN}` },
    })
    expect(res.status).toBe(201)
  })

  it('a body that is not declared as JSON with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      const res = await publishWith(TINY, SMALL_EXPORT, { headers: { 'Content-Type': type } })
      await expectError(res, 415, 'unsupported_media_type')
    }
    const bytes = new TextEncoder().encode(SMALL_EXPORT)
    const untyped = await callWithEnv(TINY, '/editor-api/exports', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: bytes,
    })
    await expectError(untyped, 415, 'unsupported_media_type')
  })

  it('a declared Content-Length over 25 MiB with 413, before reading the body', async () => {
    const { body, pulled } = countingStream(26)
    const res = await publishWith(TINY, body, {
      headers: { 'Content-Length': String(MAX_EXPORT_BYTES + 1) },
    })
    await expectError(res, 413, 'too_large')
    expect(pulled()).toBe(0)
  })

  it('a streamed body over 25 MiB with 413, reading no more than the limit', async () => {
    const { body, pulled } = countingStream(40)
    const res = await publishWith(TINY, body)
    const message = await expectError(res, 413, 'too_large')
    expect(message).toContain(String(MAX_EXPORT_BYTES))
    expect(pulled()).toBeLessThanOrEqual(27)
  })

  it('bodies that are not JSON with 400 invalid_json', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(SMALL_EXPORT)])
    for (const body of ['', 'not json', '{"content":{}', new Uint8Array([0x7b, 0xff, 0x7d]), bom]) {
      await expectError(await publishWith(TINY, body), 400, 'invalid_json')
    }
  })

  it('documents that are not {"content": {...}} with 400 invalid_export, saying what is wrong', async () => {
    const cases: [string, string][] = [
      ['[]', '{"content": {...}}'],
      ['"text"', '{"content": {...}}'],
      ['{}', 'missing'],
      ['{"content":null}', 'null'],
      ['{"content":[1]}', 'an array'],
      ['{"content":"x"}', 'a string'],
    ]
    for (const [body, hint] of cases) {
      expect(await expectError(await publishWith(TINY, body), 400, 'invalid_export')).toContain(
        hint,
      )
    }
  })

  it('100,000 levels of nesting with 400, not a crash', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    for (const body of [deep, `{"content":{"a":${deep}}}`, '['.repeat(100_000)]) {
      const res = await publishWith(TINY, body)
      expect(res.status).toBe(400)
    }
  })

  it('accepts nesting up to 256 levels (without the display-model check, which types content)', async () => {
    const body = `{"content":{"a":${'['.repeat(254)}${']'.repeat(254)}}}`
    expect((await publishWith({ EXPORT_POLICY: 'off' }, body)).status).toBe(201)
  })

  it('a quick command prefix with control, format or separator characters, or too long, with 400', async () => {
    const unprintable = [
      'model\nspawn',
      'say hi\r\nop me',
      'tab\there',
      '\u202emodel spawn', // right-to-left override: the editor would show it reversed
      'model\u2066 spawn', // left-to-right isolate
      'model\u200bspawn', // zero-width space
      'model\ufeffspawn', // zero-width no-break space
      'model\u00adspawn', // soft hyphen
      'model\u2028spawn', // line separator
      'model\u2029spawn', // paragraph separator
    ]
    for (const prefix of [...unprintable, 'x'.repeat(250)]) {
      const res = await publishWith(TINY, SMALL_EXPORT, {
        query: `quickCommandPrefix=${encodeURIComponent(prefix)}`,
      })
      await expectError(res, 400, 'invalid_quick_command')
    }
  })

  it('all of the above without storing anything or using up an ID', async () => {
    await publishWith(TINY, '[]')
    await publishWith(TINY, 'nope')
    await publishWith(TINY, SMALL_EXPORT, { query: 'quickCommandPrefix=a%0Ab' })
    expect((await env.EXPORTS.list()).keys).toEqual([])
    expect((await published(TINY)).id).toBe('100000')
  })
})

describe('POST /editor-api/exports at the size limit', () => {
  it('accepts a document of exactly 25 MiB', async () => {
    const shell = '{"content":{"pad":""}}'
    const pad = ' '.repeat(MAX_EXPORT_BYTES - shell.length)
    const body = `{"content":{"pad":"${pad}"}}`
    expect(body.length).toBe(MAX_EXPORT_BYTES)
    // Without the display-model check: a padding member is no member of a display model.
    expect((await publishWith({ EXPORT_POLICY: 'off' }, body)).status).toBe(201)
  })
})

describe('rotating the token (PUBLISH_TOKEN_NEXT)', () => {
  const NEXT = 'next-publish-token'
  const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } })

  it('accepts both tokens while both are set, and refuses any other', async () => {
    const vars = { PUBLISH_TOKEN_NEXT: NEXT }
    expect((await publishWith(vars, SMALL_EXPORT, bearer(TOKEN))).status).toBe(201)
    expect((await publishWith(vars, SMALL_EXPORT, bearer(NEXT))).status).toBe(201)
    for (const wrong of [`${NEXT}x`, NEXT.slice(0, -1), `${TOKEN}${NEXT}`, 'x']) {
      await expectError(await publishWith(vars, SMALL_EXPORT, bearer(wrong)), 401, 'unauthorized')
    }
  })

  it('refuses the next token once it is unset, and the old one once it is replaced', async () => {
    await expectError(await publishWith({}, SMALL_EXPORT, bearer(NEXT)), 401, 'unauthorized')
    const swapped = { PUBLISH_TOKEN: NEXT, PUBLISH_TOKEN_NEXT: '' }
    expect((await publishWith(swapped, SMALL_EXPORT, bearer(NEXT))).status).toBe(201)
    await expectError(await publishWith(swapped, SMALL_EXPORT, bearer(TOKEN)), 401, 'unauthorized')
  })
})
