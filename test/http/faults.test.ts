/**
 * Faults made to happen: storage that breaks mid-transfer or holds a damaged value, a client
 * that stops reading mid-body, a limiter that cannot even be addressed, an allocator that does
 * not answer, a failed write whose ID cannot be given back. KV reads that throw or hang, the
 * limiter's fail-closed path and the allocator's plain failure are in server-api.test.ts,
 * rate-limit.test.ts and publish.test.ts.
 */
import { createExecutionContext, reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SinkClosedError } from '../../src/exports/substituted-body'
import { READ_STALL_TIMEOUT_MS } from '../../src/storage/large-chunks'
import { WHOLE_READ_MAX_BYTES } from '../../src/exports/substituted-body'
import type { ExportMetadata } from '../../src/storage/export-metadata'
import { exportKey, KV_WRITE_TIMEOUT_MS } from '../../src/storage/export-store'
import type { PublishErrorFields } from '../../src/contract/publish-rpc'
import { PublishService } from '../../src/publish/entrypoint'
import {
  allocatorWith,
  call,
  callWithEnv,
  logged,
  storeExport,
  kvWithPut,
  HANG_GUARD_MS,
  WAIT_FOR,
} from '../support/helpers'
import { errorOf, publishWith, SMALL_EXPORT } from '../support/publishing'

const ID = '241235'
const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root","[MODELSERVERTAG]_0"],"n":1.0}}'
const TINY = { ID_SPACE_SIZE: '1' }

/** Replaces the stored bytes of `id` and keeps its metadata, as a damaged KV value would. */
async function damage(id: string, value: string): Promise<void> {
  const { metadata } = await env.EXPORTS.getWithMetadata(exportKey(id))
  await env.EXPORTS.put(exportKey(id), value, { metadata })
}

/** A KV binding that answers every read with `metadata` and a body made by `body`. */
function kvServing(metadata: unknown, body: () => ReadableStream<Uint8Array> | null): KVNamespace {
  return {
    getWithMetadata: () => Promise.resolve({ value: body(), metadata }),
  } as unknown as KVNamespace
}

async function storedKeys(): Promise<string[]> {
  return (await env.EXPORTS.list({ prefix: 'export:' })).keys.map((key) => key.name)
}

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

/** An export above WHOLE_READ_MAX_BYTES, so that it is streamed: DOC with a long string in it. */
const BIG_DOC = DOC.replace('"n":1.0', `"pad":"${'x'.repeat(WHOLE_READ_MAX_BYTES)}","n":1.0`)
/** An export with one placeholder written with escapes: it goes through the tag walker. */
const ESCAPED_DOC = DOC.replace('"[MODELSERVERTAG]_0"', '"\\u005BMODELSERVERTAG]_0"')

/** What a GET of `id` gives when its body is read to the end: the status, or the failed read. */
async function getWhole(id: string): Promise<{ status: number; body: string | Error }> {
  const res = await call(`/server-api?id=${id}&tag=t`)
  const body = await res.text().catch((error: Error) => error)
  return { status: res.status, body }
}

describe('a stored export that is damaged', () => {
  const mismatches: [string, string, (doc: string) => string, string][] = [
    [
      'cut short',
      'raw',
      (doc) => doc.slice(0, 40),
      'the stored value has 40 bytes; its metadata says N',
    ],
    [
      'followed by data',
      'raw',
      (doc) => doc + '}',
      'the stored value has more than N bytes; its metadata says N',
    ],
    [
      'without its placeholders',
      'raw',
      (doc) => doc.replaceAll('[MODELSERVERTAG]', '[SOMETHINGELSE!]'),
      'the stored value has 0 placeholders; its metadata says 2',
    ],
    [
      'not JSON',
      'escaped',
      (doc) => 'x'.repeat(doc.length),
      'is malformed: not-an-object at byte 0',
    ],
    [
      'with a bracket of the wrong kind',
      'escaped',
      (doc) => doc.replace('"n"', '["n"}'),
      'is malformed: mismatched-bracket',
    ],
    [
      'with a broken escape',
      'escaped',
      (doc) => doc.replace('"n"', '"\\x"'),
      'is malformed: invalid-escape',
    ],
  ]

  it.each(mismatches)(
    'answers 503 unavailable before sending anything when %s (%s placeholders), and logs why',
    async (_, kind, damageOf, why) => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {})
      const doc = kind === 'raw' ? DOC : ESCAPED_DOC
      await storeExport(ID, doc)
      await damage(ID, damageOf(doc))
      const res = await call(`/server-api?id=${ID}&tag=t`)
      expect(res.status).toBe(503)
      expect(res.headers.get('Retry-After')).toBe('1')
      expect((await errorOf(res)).code).toBe('unavailable')
      expect(logged(log)).toEqual([
        expect.stringContaining(
          `export ${ID} ${why.includes('malformed') ? '' : 'could not be read: ValueMismatchError: '}${why.replaceAll('N', String(doc.length))}`,
        ),
      ])
    },
  )

  it('aborts the transfer of a streamed export, and logs the id and the reason', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const cases: [string, string][] = [
      [BIG_DOC.slice(0, -1), `the stored value has ${BIG_DOC.length - 1} bytes`],
      [BIG_DOC + ' ', `the stored value has more than ${BIG_DOC.length} bytes`],
      [
        BIG_DOC.replace(
          '[MODELSERVERTAG]_root',
          '[MODELSERVERTAG]_0"],"x":["[MODELSERVERTAG]_1',
        ).slice(0, BIG_DOC.length),
        'the stored value has more than 2 placeholders',
      ],
      [
        BIG_DOC.replaceAll('[MODELSERVERTAG]', '[SOMETHINGELSE!]'),
        'the stored value does not match its metadata: substituted, it outgrows',
      ],
    ]
    await storeExport(ID, BIG_DOC)
    for (const [value] of cases) {
      await damage(ID, value)
      const got = await getWhole(ID)
      expect(got.status).toBe(200)
      expect(got.body).toBeInstanceOf(Error)
    }
    await vi.waitFor(() => expect(log).toHaveBeenCalledTimes(cases.length), WAIT_FOR)
    expect(logged(log)).toEqual(
      cases.map(([, why]) =>
        expect.stringContaining(`export ${ID} could not be read: ValueMismatchError: ${why}`),
      ),
    )
  })

  it('decides between reading whole and streaming on the substituted length, not the stored one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    // 1,040,020 bytes stored: 65,020 with tag=x (read whole), 6,500,020 with 100 characters.
    const doc = `{"content":{"a":"${'[MODELSERVERTAG]'.repeat(65_000)}"}}`
    await storeExport(ID, doc)
    await damage(ID, doc.slice(0, -1))
    const short = await call(`/server-api?id=${ID}&tag=x`)
    expect(short.status).toBe(503)
    expect((await errorOf(short)).code).toBe('unavailable')
    const long = await call(`/server-api?id=${ID}&tag=${'Z'.repeat(100)}`)
    expect(long.status).toBe(200)
    await expect(long.text()).rejects.toThrow()
  })

  it('answers 503 and logs when the value has no valid metadata', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await env.EXPORTS.put(exportKey(ID), DOC, { metadata: { v: 2 } })
    const res = await call(`/server-api?id=${ID}`)
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(logged(log).join('\n')).toContain(`export ${ID} has no valid metadata`)
  })
})

/**
 * Stores `doc`, then returns a KV binding that answers its metadata and a body of its first 30
 * bytes, after which every pull goes to `pull` (to fail, or never to answer).
 */
async function kvAfterHead(
  doc: string,
  pull: (controller: ReadableStreamDefaultController<Uint8Array>) => void | Promise<void>,
): Promise<KVNamespace> {
  await storeExport(ID, doc)
  const { metadata } = await env.EXPORTS.getWithMetadata<ExportMetadata>(exportKey(ID))
  return kvServing(metadata, () => {
    const head = new TextEncoder().encode(doc.slice(0, 30))
    return new ReadableStream({ start: (controller) => controller.enqueue(head), pull })
  })
}

describe('a KV read that breaks mid-transfer', () => {
  const breakingKv = (doc: string) =>
    kvAfterHead(doc, (controller) => controller.error(new Error('KV stream reset')))

  it('answers 503 and logs the id when the export is read whole', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await callWithEnv({ EXPORTS: await breakingKv(DOC) }, `/server-api?id=${ID}`)
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(logged(log)).toEqual([
      expect.stringContaining(`export ${ID} could not be read: Error: KV stream reset`),
    ])
  })

  it('aborts the transfer and logs the id when the export is streamed', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await callWithEnv({ EXPORTS: await breakingKv(BIG_DOC) }, `/server-api?id=${ID}`)
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
    await vi.waitFor(() => expect(log).toHaveBeenCalled(), WAIT_FOR)
    expect(logged(log)).toEqual([
      expect.stringContaining(`export ${ID} could not be read: Error: KV stream reset`),
    ])
  })
})

describe('a KV value that stops arriving', () => {
  const stalledKv = (doc: string) => kvAfterHead(doc, () => new Promise(() => {}))
  const why = `export ${ID} could not be read: TimeoutError: KV value read: no answer within ${READ_STALL_TIMEOUT_MS} ms`

  it(
    'answers 503 after the stall timeout when the export is read whole, and logs the id',
    async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {})
      const res = await callWithEnv({ EXPORTS: await stalledKv(DOC) }, `/server-api?id=${ID}`)
      expect(res.status).toBe(503)
      expect((await errorOf(res)).code).toBe('unavailable')
      expect(logged(log)).toEqual([expect.stringContaining(why)])
    },
    HANG_GUARD_MS,
  )

  it(
    'aborts the transfer after the stall timeout when the export is streamed, and logs the id',
    async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {})
      const res = await callWithEnv({ EXPORTS: await stalledKv(BIG_DOC) }, `/server-api?id=${ID}`)
      expect(res.status).toBe(200)
      await expect(res.text()).rejects.toThrow()
      await vi.waitFor(() => expect(log).toHaveBeenCalled(), WAIT_FOR)
      expect(logged(log)).toEqual([expect.stringContaining(why)])
    },
    HANG_GUARD_MS,
  )
})

describe('a client that stops reading mid-transfer', () => {
  it('stops reading KV and logs nothing: the export is not at fault', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(ID, BIG_DOC)
    const { metadata } = await env.EXPORTS.getWithMetadata<ExportMetadata>(exportKey(ID))
    let cancelled: (reason: unknown) => void = () => {}
    const sourceCancelled = new Promise((resolve) => (cancelled = resolve))
    const endless = kvServing(metadata, () => {
      const [head, rest] = [BIG_DOC.slice(0, 30), BIG_DOC.slice(30, 60)].map((s) =>
        new TextEncoder().encode(s),
      )
      let pulls = 0
      return new ReadableStream({
        start: (controller) => controller.enqueue(head),
        // A little more, then nothing ever again: only a cancel ends this stream.
        pull: (controller) => (pulls++ === 0 ? controller.enqueue(rest) : new Promise(() => {})),
        cancel: cancelled,
      })
    })
    const res = await callWithEnv({ EXPORTS: endless }, `/server-api?id=${ID}&tag=t`)
    const reader = res.body!.getReader()
    expect((await reader.read()).done).toBe(false)
    await reader.cancel(new Error('Network connection lost.'))
    expect(await sourceCancelled).toBeInstanceOf(SinkClosedError)
    await scheduler.wait(10)
    expect(log).not.toHaveBeenCalled()
  })
})

describe('a limiter that cannot be addressed', () => {
  it('answers 503 without limits when getByName itself throws', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const unaddressable = {
      getByName: () => {
        throw new Error('invalid Durable Object name')
      },
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    const res = await callWithEnv({ RATE_LIMITER: unaddressable }, '/server-api?id=999999')
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('5')
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull()
    expect(logged(log)[0]).toContain('rate limiter unavailable')
  })
})

describe('an allocator that does not answer', () => {
  it(
    'fails the publish with 503 within the timeout and stores nothing',
    async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {})
      const hanging = allocatorWith({ allocate: () => new Promise(() => {}) })
      const res = await publishWith({ ID_ALLOCATOR: hanging })
      expect(res.status).toBe(503)
      expect(res.headers.get('Retry-After')).toBe('1')
      expect((await errorOf(res)).code).toBe('unavailable')
      expect(await storedKeys()).toEqual([])
    },
    HANG_GUARD_MS,
  )

  it('rejects an RPC publish with code unavailable and status 503, storing nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const down = allocatorWith({ allocate: () => Promise.reject(new Error('DO unreachable')) })
    const service = new PublishService(createExecutionContext(), { ...env, ID_ALLOCATOR: down })
    const rejection = await service.publish(SMALL_EXPORT).then(
      () => null,
      (error: Error & PublishErrorFields) => error,
    )
    expect(rejection).toMatchObject({ code: 'unavailable', status: 503, retryAfterSeconds: 1 })
    expect(await storedKeys()).toEqual([])
  })
})

describe('a KV write that fails when the ID cannot be given back either', () => {
  it('answers 503, logs, and keeps the ID reserved so it is never issued twice', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const noRelease = allocatorWith({ release: () => Promise.reject(new Error('DO unreachable')) })
    const res = await publishWith({
      ...TINY,
      EXPORTS: kvWithPut(() => Promise.reject(new Error('KV write failed'))),
      ID_ALLOCATOR: noRelease,
    })
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(await storedKeys()).toEqual([])
    expect(logged(log).join('\n')).toContain('releasing ID 100000 failed')
    // The only ID is still held: the next publish finds the space full instead of reusing it.
    const next = await publishWith(TINY)
    expect(next.status).toBe(503)
    expect((await errorOf(next)).code).toBe('capacity')
  })
})

describe('a KV write that does not answer', () => {
  it('answers 503 after the write timeout and keeps the ID reserved, as the write may still land', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const hangingWrites = kvWithPut(() => new Promise(() => {}))
    const started = Date.now()
    const res = await publishWith({ ...TINY, EXPORTS: hangingWrites })
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
    expect(Date.now() - started).toBeGreaterThanOrEqual(KV_WRITE_TIMEOUT_MS)
    expect(logged(log).join('\n')).toContain('storing export 100000 timed out')
    const next = await publishWith(TINY)
    expect((await errorOf(next)).code).toBe('capacity')
  })
})
