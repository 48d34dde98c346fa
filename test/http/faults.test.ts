/**
 * Faults on the HTTP path, made to happen: a client that stops reading mid-body, a limiter that
 * cannot even be addressed, an allocator that does not answer. Storage faults are in
 * test/storage/storage-faults.test.ts; the limiter's fail-closed path and the allocator's plain
 * failure in rate-limit.test.ts and publish.test.ts.
 */
import { createExecutionContext, reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ExportMetadata } from '../../src/storage'
import { exportKey } from '../support/storage-layout'
import type { PublishErrorFields } from '../../src/contract/publish-rpc'
import { PublishService } from '../../src/index'
import { allocatorWith, callWithEnv, logged, storeExport, HANG_GUARD_MS } from '../support/helpers'
import { errorOf, publishWith, SMALL_EXPORT } from '../support/publishing'
import { kvServing, STREAMED_FAULT_DOC as BIG_DOC, storedKeys } from '../support/storage-faults'

const ID = '241235'

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
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
    // The Worker stops reading KV once its caller is gone.
    expect(await sourceCancelled).toBeInstanceOf(Error)
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
