/**
 * Storage that fails, made to happen: a KV read that throws or hangs, a stored value that is
 * damaged, cut short or not the document published, a KV read that breaks mid-transfer or stops
 * arriving, a KV write that fails when its ID cannot be given back, a KV write that does not
 * answer. The faults of the HTTP path are in test/http/faults.test.ts.
 */
import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ExportMetadata } from '../../src/storage'
import { exportKey } from '../support/storage-layout'
import { READ_STALL_TIMEOUT_MS, KV_WRITE_TIMEOUT_MS } from '../support/documented-limits'
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
import { errorOf, publishWith } from '../support/publishing'
import {
  FAULT_DOC as DOC,
  kvServing,
  STREAMED_FAULT_DOC as BIG_DOC,
  storedKeys,
} from '../support/storage-faults'

const ID = '241235'
const TINY = { ID_SPACE_SIZE: '1' }

/** Replaces the stored bytes of `id` and keeps its metadata, as a damaged KV value would. */
async function damage(id: string, value: string): Promise<void> {
  const { metadata } = await env.EXPORTS.getWithMetadata(exportKey(id))
  await env.EXPORTS.put(exportKey(id), value, { metadata })
}

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

/** An export with one placeholder written with escapes: it goes through the JSON splicer. */
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

describe('a KV read that fails, or a value that is not what was published', () => {
  it('answers 503 unavailable when the KV read throws', async () => {
    const brokenKv = {
      getWithMetadata: () => Promise.reject(new Error('KV is down')),
    } as unknown as KVNamespace
    const res = await callWithEnv({ EXPORTS: brokenKv }, `/server-api?id=${ID}`)
    expect(res.status).toBe(503)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect((await errorOf(res)).code).toBe('unavailable')
  })

  it('answers 503 unavailable when the KV read hangs', async () => {
    const hangingKv = { getWithMetadata: () => new Promise(() => {}) } as unknown as KVNamespace
    const res = await callWithEnv({ EXPORTS: hangingKv }, `/server-api?id=${ID}`)
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
  })

  it('answers 503 unavailable when the stored value is cut short', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(ID, DOC)
    const { metadata } = await env.EXPORTS.getWithMetadata(exportKey(ID))
    await env.EXPORTS.put(exportKey(ID), DOC.slice(0, 30), { metadata })
    const res = await call(`/server-api?id=${ID}`)
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
  })

  it('answers 503 unavailable when the stored value is not the document published', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(ID, DOC)
    const { metadata } = await env.EXPORTS.getWithMetadata(exportKey(ID))
    await env.EXPORTS.put(exportKey(ID), 'x'.repeat(DOC.length), { metadata })
    const res = await call(`/server-api?id=${ID}`)
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('unavailable')
  })
})
