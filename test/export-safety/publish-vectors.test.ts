import { reset } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { callWithEnv } from '../support/helpers'
import { FIXTURES } from '../support/fixtures'
import { errorOf, publishWith } from '../support/publishing'
import { ALLOWED_VECTORS, REFUSED_VECTORS } from '../support/export-safety-vectors'
import { PublishService } from '../../src/index'
import { createExecutionContext } from 'cloudflare:test'

/** A one-ID space: an ID a refusal leaked would make the next publish answer 503 capacity. */
const TINY = { ID_SPACE_SIZE: '1' }

afterEach(() => reset())

/** How many exports KV holds. */
async function storedExports(): Promise<number> {
  return (await env.EXPORTS.list()).keys.length
}

describe('publishing under EXPORT_POLICY=display-models (the default)', () => {
  it.each(Object.entries(FIXTURES))('publishes the real export %s', async (_, text) => {
    expect((await publishWith({}, text)).status).toBe(201)
  })

  it.each(ALLOWED_VECTORS.map((vector) => [vector.file, vector] as const))(
    'publishes %s through the editor API and RPC',
    async (_, vector) => {
      const res = await publishWith({}, vector.text)
      expect(res.status, await res.clone().text()).toBe(201)
      await expect(exports.PublishService.publish(vector.text)).resolves.toMatchObject({
        id: expect.stringMatching(/^\d{6}$/),
      })
    },
  )

  it.each(REFUSED_VECTORS.map((vector) => [vector.file, vector] as const))(
    'refuses %s with 400 unsafe_export naming its path, and stores nothing',
    async (_, vector) => {
      const res = await publishWith(TINY, vector.text)
      expect(res.status).toBe(400)
      expect(res.headers.get('Cache-Control')).toBe('no-store')
      const body = await res.json<Record<string, unknown>>()
      expect(body.code).toBe('unsafe_export')
      expect(body.path).toBe(vector.path)
      expect(typeof body.error).toBe('string')
      expect(body.error).toContain(vector.path)
      expect(body.error).toContain(vector.found)
      expect(await storedExports()).toBe(0)
      // The one ID is still free: the refusal reserved none.
      expect((await publishWith(TINY, ALLOWED_VECTORS[0]!.text)).status).toBe(201)
    },
  )

  it.each(REFUSED_VECTORS.map((vector) => [vector.file, vector] as const))(
    'refuses %s over RPC with code unsafe_export, status 400 and the path',
    async (_, vector) => {
      const service = new PublishService(createExecutionContext(), { ...env, ...TINY })
      const error: unknown = await service.publish(vector.text).then(
        () => null,
        (thrown: unknown) => thrown,
      )
      expect(error).toBeInstanceOf(Error)
      expect(error).toMatchObject({
        code: 'unsafe_export',
        status: 400,
        path: vector.path,
        message: expect.stringContaining(vector.path!),
      })
      expect(await storedExports()).toBe(0)
    },
  )
})

describe('publishing under EXPORT_POLICY=off', () => {
  it('publishes every refused vector, through the editor API and RPC', async () => {
    const off = { EXPORT_POLICY: 'off' }
    const service = new PublishService(createExecutionContext(), { ...env, ...off })
    for (const vector of REFUSED_VECTORS) {
      const res = await publishWith(off, vector.text)
      expect(res.status, vector.file).toBe(201)
      await expect(service.publish(vector.text)).resolves.toHaveProperty('id')
    }
    expect(await storedExports()).toBe(2 * REFUSED_VECTORS.length)
  })

  it('still refuses what is not an export at all', async () => {
    const res = await publishWith({ EXPORT_POLICY: 'off' }, '{"content":[]}')
    expect(res.status).toBe(400)
    expect((await errorOf(res)).code).toBe('invalid_export')
  })
})

describe('a misspelt EXPORT_POLICY', () => {
  it('fails publishing with 500 rather than checking less, and stores nothing', async () => {
    const res = await callWithEnv({ EXPORT_POLICY: 'display-model' }, '/editor-api/exports', {
      method: 'POST',
      headers: {
        Authorization: 'Bearer test-publish-token',
        'Content-Type': 'application/json',
      },
      body: REFUSED_VECTORS[0]!.text,
    })
    expect(res.status).toBe(500)
    expect((await errorOf(res)).code).toBe('internal')
    expect(await storedExports()).toBe(0)
  })
})

describe('a refusal is at most 16 KiB, whatever the export', () => {
  const MAX_BODY_BYTES = 16 * 1024
  const frame = (animation: string, name: string, command: string) =>
    `{"content":{"datapack":{"anim_keyframes":{${JSON.stringify(animation)}:{${JSON.stringify(name)}:[${JSON.stringify(command)}]}}}}}`
  const control = (count: number, from: number) =>
    Array.from({ length: count }, (_, i) => String.fromCharCode(from + (i % 20))).join('')
  const cases: Array<[string, string, string]> = [
    [
      'an animation name of a million quotes',
      frame('"'.repeat(1_000_000), '0', 'op @a'),
      'content.datapack.anim_keyframes',
    ],
    [
      'a frame name of 300 characters',
      frame('open', 'x'.repeat(300), 'op @a'),
      'content.datapack.anim_keyframes.open',
    ],
    [
      'a command word of 30,000 quotes',
      frame('open', '0', '"'.repeat(30_000)),
      'content.datapack.anim_keyframes.open.0[0]',
    ],
    [
      'a command of a million characters',
      frame('open', '0', 'x'.repeat(1_000_000)),
      'content.datapack.anim_keyframes.open.0[0]',
    ],
    [
      'an entity id of a million quotes',
      `{"content":{"passengers":[${JSON.stringify(`{id:"${'\\"'.repeat(500_000)}"}`)}]}}`,
      'content.passengers[0]',
    ],
    [
      'a key of a million characters',
      `{"content":{"passengers":[${JSON.stringify(`{id:"block_display",${'k'.repeat(1_000_000)}:1b}`)}]}}`,
      'content.passengers[0]',
    ],
    [
      'a root member name of a million characters',
      `{"content":{},${JSON.stringify('\\'.repeat(1_000_000))}:1}`,
      '',
    ],
    [
      'the longest names, each character escaped six-fold',
      frame(control(256, 1), control(256, 2), 'op @a'),
      `content.datapack.anim_keyframes[${JSON.stringify(control(256, 1))}][${JSON.stringify(control(256, 2))}][0]`,
    ],
  ]

  it.each(cases)('%s: 400 unsafe_export, the exact path, a small body', async (_, text, path) => {
    const res = await publishWith({}, text)
    expect(res.status).toBe(400)
    const body = await res.text()
    expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(MAX_BODY_BYTES)
    const parsed = JSON.parse(body) as Record<string, unknown>
    expect(parsed.code).toBe('unsafe_export')
    expect(parsed.path).toBe(path)
  })
})
