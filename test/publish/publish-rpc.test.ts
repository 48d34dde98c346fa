import { createExecutionContext, reset } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { exportKey } from '../support/storage-layout'
import { PublishService } from '../../src/index'
import { call } from '../support/helpers'
import { SMALL_EXPORT } from '../support/publishing'

afterEach(() => reset())

/** The entrypoint with some vars replaced, called directly rather than through a binding. */
function serviceWith(vars: Partial<Cloudflare.Env>): PublishService {
  return new PublishService(createExecutionContext(), { ...env, ...vars })
}

describe('PublishService (RPC entrypoint)', () => {
  it('publishes a document given as text and serves it', async () => {
    const result = await exports.PublishService.publish(SMALL_EXPORT)
    expect(result).toMatchObject({
      expiresInSeconds: 600,
      quickCommand: `/model spawn ${result.id}`,
    })
    const res = await call(`/server-api?id=${result.id}&tag=rpc`)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(SMALL_EXPORT.replaceAll('[MODELSERVERTAG]', 'rpc'))
  })

  it('stores bytes as given and an object as its JSON', async () => {
    const bytes = new TextEncoder().encode('{"content":{ "meta" :1}}')
    const fromBytes = await exports.PublishService.publish(bytes)
    expect(await env.EXPORTS.get(exportKey(fromBytes.id))).toBe('{"content":{ "meta" :1}}')
    const fromObject = await exports.PublishService.publish({ content: { meta: 1 } })
    expect(await env.EXPORTS.get(exportKey(fromObject.id))).toBe('{"content":{"meta":1}}')
  })

  it('uses the quick command prefix given', async () => {
    const result = await exports.PublishService.publish(SMALL_EXPORT, {
      quickCommandPrefix: 'mm spawn',
    })
    expect(result.quickCommand).toBe(`/mm spawn ${result.id}`)
  })

  it('rejects an invalid export with the editor API code and status', async () => {
    const error: unknown = await exports.PublishService.publish('{"content":[]}').then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({
      message: expect.stringMatching(/^invalid_export: /),
      code: 'invalid_export',
      status: 400,
    })
  })

  it('rejects with capacity and a retry delay when every ID is in use', async () => {
    const service = serviceWith({ ID_SPACE_SIZE: '1' })
    await service.publish(SMALL_EXPORT)
    await expect(service.publish(SMALL_EXPORT)).rejects.toMatchObject({
      code: 'capacity',
      status: 503,
      retryAfterSeconds: 600 + 3600,
    })
  })
})
