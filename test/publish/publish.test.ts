import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { exportKey } from '../support/storage-layout'
import { call, callWithEnv, kvWithPut } from '../support/helpers'
import { errorOf, published, publishWith, SMALL_EXPORT } from '../support/publishing'

const T0 = Date.UTC(2030, 0, 1)

/** Moves the clock of the Worker and the Durable Objects to `T0 + seconds`. */
function at(seconds: number): void {
  vi.setSystemTime(T0 + seconds * 1000)
}

/** Removes an export from KV, as KV's own expiry (or a location that has not seen it) would. */
function dropFromKv(id: string): Promise<void> {
  return env.EXPORTS.delete(exportKey(id))
}

/** An allocator namespace whose every call fails, like an unreachable Durable Object. */
function unreachableAllocator(): Cloudflare.Env['ID_ALLOCATOR'] {
  return allocatorAnswering(() => Promise.reject(new Error('DO unreachable')))
}

function allocatorAnswering(call: () => Promise<never>): Cloudflare.Env['ID_ALLOCATOR'] {
  const stub = new Proxy({}, { get: () => call })
  return { getByName: () => stub } as unknown as Cloudflare.Env['ID_ALLOCATOR']
}

async function storedKeys(): Promise<string[]> {
  const list = await env.EXPORTS.list({ prefix: 'export:' })
  return list.keys.map((k) => k.name)
}

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

describe('publishing and retrieving an export', () => {
  it('serves a published export with any tag until it expires, then answers 410', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const first = await published()
    expect(first.id).toMatch(/^[1-9][0-9]{5}$/)
    expect(first.expiresInSeconds).toBe(600)
    expect(first.expiresAt).toBe(new Date(T0 + 600_000).toISOString())
    expect(first.quickCommand).toBe(`/model spawn ${first.id}`)

    const alpha = await call(`/server-api?id=${first.id}&tag=alpha`)
    expect(alpha.status).toBe(200)
    expect(await alpha.text()).toBe(SMALL_EXPORT.replaceAll('[MODELSERVERTAG]', 'alpha'))
    const beta = await call(`/server-api?id=${first.id}&tag=beta_2`)
    expect(await beta.text()).toBe(SMALL_EXPORT.replaceAll('[MODELSERVERTAG]', 'beta_2'))

    at(599)
    const head = await call(`/server-api?id=${first.id}&tag=alpha`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('Content-Length')).toBe(String(alpha.headers.get('Content-Length')))
    expect(await head.text()).toBe('')

    at(600)
    const expired = await call(`/server-api?id=${first.id}`)
    expect(expired.status).toBe(410)
    expect((await errorOf(expired)).code).toBe('expired')

    const second = await published()
    expect(second.id).not.toBe(first.id)
    expect(second.expiresAt).toBe(new Date(T0 + 1_200_000).toISOString())
    expect((await call(`/server-api?id=${second.id}&tag=alpha`)).status).toBe(200)
    expect((await call(`/server-api?id=${first.id}`)).status).toBe(410)
  })

  it('stops serving after a short lifetime by the real clock', async () => {
    const vars = { EXPORT_TTL_SECONDS: '1' }
    const { id, expiresInSeconds } = await published(vars)
    expect(expiresInSeconds).toBe(1)
    expect((await callWithEnv(vars, `/server-api?id=${id}`)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const res = await callWithEnv(vars, `/server-api?id=${id}`)
    expect(res.status).toBe(410)
  })

  it('answers 410 for an expired ID that KV no longer has, and 404 once its quarantine ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const { id } = await published()
    at(600)
    await dropFromKv(id)
    expect((await call(`/server-api?id=${id}`)).status).toBe(410)
    at(600 + 3599)
    expect((await call(`/server-api?id=${id}`)).status).toBe(410)
    at(600 + 3600)
    const gone = await call(`/server-api?id=${id}`)
    expect(gone.status).toBe(404)
    expect((await errorOf(gone)).code).toBe('not_found')
  })

  it('answers 503 not_ready with Retry-After for a live ID this location has not seen yet, once the grace copy is gone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    const { id } = await published()
    await dropFromKv(id)
    expect((await call(`/server-api?id=${id}`)).status).toBe(200)
    at(120)
    const res = await call(`/server-api?id=${id}`)
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('5')
    expect(await errorOf(res)).toMatchObject({ code: 'not_ready', retryAfterSeconds: 5 })
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
  })

  it('answers 404 for an ID that was never issued', async () => {
    const res = await call('/server-api?id=123456')
    expect(res.status).toBe(404)
    expect((await errorOf(res)).code).toBe('not_found')
  })

  it('stores the bytes exactly as received', async () => {
    const document = '{ "content" : {"meta":{"b":"\\u00e9\\/[MODELSERVERTAG]" , "a":1.50e0}}\n}'
    const { id } = await published({}, document)
    const stored = await env.EXPORTS.get(exportKey(id))
    expect(stored).toBe(document)
  })
})

describe('a publish that fails', () => {
  it('gives the ID back when the KV write fails, and stores nothing', async () => {
    const tiny = { ID_SPACE_SIZE: '1' }
    const res = await publishWith({
      ...tiny,
      EXPORTS: kvWithPut(() => Promise.reject(new Error('KV write failed'))),
    })
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('1')
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(await storedKeys()).toEqual([])
    // The only ID of the space was released: unknown to readers and free for the next publish.
    expect((await callWithEnv(tiny, '/server-api?id=100000')).status).toBe(404)
    expect((await published(tiny)).id).toBe('100000')
  })

  it('answers 503 and stores nothing when the allocator is unreachable', async () => {
    const res = await publishWith({ ID_ALLOCATOR: unreachableAllocator() })
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('1')
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(await storedKeys()).toEqual([])
  })

  // The ID may be live with its export only in the allocator's copy: never a 404 on a guess.
  it('answers 503 unavailable for a missing export when the allocator is unreachable', async () => {
    const res = await callWithEnv({ ID_ALLOCATOR: unreachableAllocator() }, '/server-api?id=123456')
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('1')
    expect((await errorOf(res)).code).toBe('unavailable')
  })

  it('answers 503 unavailable for a missing export when the allocator does not answer in time', async () => {
    // It never answers: an answer at all is the lookup timeout at work.
    const hanging = allocatorAnswering(() => new Promise<never>(() => {}))
    const res = await callWithEnv({ ID_ALLOCATOR: hanging }, '/server-api?id=123456')
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
  })
})
