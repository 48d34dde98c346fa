/**
 * Faults made to happen: storage that breaks mid-transfer or holds a damaged value, a client
 * that stops reading mid-body, a limiter that cannot even be addressed, an allocator that does
 * not answer, a failed write whose ID cannot be given back. KV reads that throw or hang, the
 * limiter's fail-open path and the allocator's plain failure are in server-api.test.ts,
 * rate-limit.test.ts and publish.test.ts.
 */
import { createExecutionContext, reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SinkClosedError } from '../src/exports/pump'
import { exportKey, KV_WRITE_TIMEOUT_MS, type ExportMetadata } from '../src/exports/store'
import { ALLOCATE_TIMEOUT_MS } from '../src/publish/allocator-client'
import { PublishService, type PublishErrorFields } from '../src/publish/entrypoint'
import { call, callWithEnv, storeExport, kvWithPut } from './helpers'
import { errorOf, publishWith, SMALL_EXPORT } from './publishing'

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

/**
 * The allocator namespace with some of its methods replaced; the rest reach the real objects.
 * `getByName` is what allocator-client.ts uses.
 */
function allocatorWith(
  methods: Record<string, (...args: never[]) => Promise<unknown>>,
): Cloudflare.Env['ID_ALLOCATOR'] {
  return {
    getByName(name: string) {
      const real = env.ID_ALLOCATOR.getByName(name)
      return new Proxy(real, {
        get: (target, key) =>
          typeof key === 'string' && key in methods ? methods[key] : Reflect.get(target, key),
      })
    },
  } as unknown as Cloudflare.Env['ID_ALLOCATOR']
}

async function storedKeys(): Promise<string[]> {
  return (await env.EXPORTS.list({ prefix: 'export:' })).keys.map((key) => key.name)
}

/** What the log got, one string per call. */
function logged(log: { mock: { calls: unknown[][] } }): string[] {
  return log.mock.calls.map((args) => args.map(String).join(' '))
}

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

describe('a stored export that is damaged', () => {
  it.each([
    ['cut short', DOC.slice(0, 40), 'unexpected-end'],
    ['not JSON', 'x'.repeat(DOC.length), 'not-an-object'],
    ['with a bracket of the wrong kind', DOC.replace('"n"', '["n"}'), 'mismatched-bracket'],
    ['with a broken escape', DOC.replace('"n"', '"\\x"'), 'invalid-escape'],
    ['followed by data', DOC.slice(0, -2) + '}}}', 'trailing-data'],
  ])('aborts the transfer when %s, and logs the id and the reason', async (_, value, reason) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(ID, DOC)
    await damage(ID, value)
    const res = await call(`/server-api?id=${ID}&tag=t`)
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
    await vi.waitFor(() => expect(log).toHaveBeenCalled())
    expect(logged(log)).toEqual([
      expect.stringMatching(`^export ${ID} is malformed: ${reason} at byte \\d+$`),
    ])
  })

  it('aborts the transfer and logs the id when the value is whole JSON but not the length published', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(ID, DOC)
    const longer = DOC.replace('"n"', '"nnn"')
    const shorter = DOC.replace('"n"', '""')
    for (const value of [longer, shorter]) {
      await damage(ID, value)
      const res = await call(`/server-api?id=${ID}&tag=t`)
      await expect(res.text()).rejects.toThrow()
    }
    await vi.waitFor(() => expect(log).toHaveBeenCalledTimes(2))
    expect(logged(log)).toEqual([
      `export ${ID} could not be read: Error: the stored value has more than ${DOC.length} bytes; its metadata says ${DOC.length}`,
      `export ${ID} could not be read: Error: the stored value has ${shorter.length} bytes; its metadata says ${DOC.length}`,
    ])
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

describe('a KV read that breaks mid-transfer', () => {
  it('aborts the transfer and logs the id', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(ID, DOC)
    const { metadata } = await env.EXPORTS.getWithMetadata<ExportMetadata>(exportKey(ID))
    const breaking = kvServing(metadata, () => {
      const head = new TextEncoder().encode(DOC.slice(0, 30))
      return new ReadableStream({
        start: (controller) => controller.enqueue(head),
        pull: (controller) => controller.error(new Error('KV stream reset')),
      })
    })
    const res = await callWithEnv({ EXPORTS: breaking }, `/server-api?id=${ID}`)
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
    await vi.waitFor(() => expect(log).toHaveBeenCalled())
    expect(logged(log)).toEqual([`export ${ID} could not be read: Error: KV stream reset`])
  })
})

describe('a client that stops reading mid-transfer', () => {
  it('stops reading KV and logs nothing: the export is not at fault', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    await storeExport(ID, DOC)
    const { metadata } = await env.EXPORTS.getWithMetadata<ExportMetadata>(exportKey(ID))
    let cancelled: (reason: unknown) => void = () => {}
    const sourceCancelled = new Promise((resolve) => (cancelled = resolve))
    const endless = kvServing(metadata, () => {
      const [head, rest] = [DOC.slice(0, 30), DOC.slice(30)].map((s) => new TextEncoder().encode(s))
      let pulls = 0
      return new ReadableStream({
        start: (controller) => controller.enqueue(head),
        // The rest, then nothing ever again: only a cancel ends this stream.
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
  it('serves the request without limits when getByName itself throws', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const unaddressable = {
      getByName: () => {
        throw new Error('invalid Durable Object name')
      },
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    const res = await callWithEnv({ RATE_LIMITER: unaddressable }, '/server-api?id=999999')
    expect(res.status).toBe(404)
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
      const started = Date.now()
      const res = await publishWith({ ID_ALLOCATOR: hanging })
      expect(res.status).toBe(503)
      expect(res.headers.get('Retry-After')).toBe('1')
      expect((await errorOf(res)).code).toBe('unavailable')
      expect(Date.now() - started).toBeLessThan(ALLOCATE_TIMEOUT_MS + 2000)
      expect(await storedKeys()).toEqual([])
    },
    ALLOCATE_TIMEOUT_MS + 10_000,
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
