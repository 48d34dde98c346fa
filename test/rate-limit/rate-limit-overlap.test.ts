import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { allocatorWith, callWithEnv, storeExport } from '../support/helpers'

const SMALL = { RATE_LIMIT_SHORT: '3/10', RATE_LIMIT_LONG: '5/100' }
const ID = '123456'
const DOC = '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"]}}}'

/** The export store, with each read of an export recorded by ID before it goes to KV. */
function recordingKv(reads: string[]): KVNamespace {
  return new Proxy(env.EXPORTS, {
    get(target, key) {
      if (key === 'getWithMetadata') {
        return (name: string, options: KVNamespaceGetOptions<'stream'>) => {
          reads.push(name)
          return target.getWithMetadata(name, options)
        }
      }
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** A request for `id` from `ip` with the small windows and `overrides`. */
function from(ip: string, id: string, overrides: Partial<Cloudflare.Env> = {}): Promise<Response> {
  return callWithEnv({ ...SMALL, ...overrides }, `/server-api?id=${id}&tag=a`, {
    headers: { 'CF-Connecting-IP': ip },
  })
}

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

describe('the read and the limiter overlap', () => {
  it('starts reading the export before the limiter has answered', async () => {
    await storeExport(ID, DOC)
    const reads: string[] = []
    // A limiter that answers only once the read has started: in sequence they would wait for
    // each other until the limiter's timeout, and the request would go out unlimited.
    const limiter = {
      getByName(name: string) {
        const real = env.RATE_LIMITER.getByName(name)
        return {
          hit: async (...args: Parameters<typeof real.hit>) => {
            await vi.waitFor(() => expect(reads).toHaveLength(1), { timeout: 1_000, interval: 5 })
            return real.hit(...args)
          },
        }
      },
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    const res = await from('192.0.2.40', ID, {
      EXPORTS: recordingKv(reads),
      RATE_LIMITER: limiter,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('2')
  })

  it('drops the read of a request the limiter refuses, and reads nothing once the refusal is known', async () => {
    await storeExport(ID, DOC)
    const ip = '192.0.2.41'
    for (let i = 0; i < 3; i++) expect((await from(ip, ID)).status).toBe(200)
    const reads: string[] = []
    const kv = recordingKv(reads)
    // The limiter refuses: the read started beside it goes unused.
    const refused = await from(ip, ID, { EXPORTS: kv })
    expect(refused.status).toBe(429)
    expect(reads).toEqual([`export:${ID}`])
    // This isolate now knows the refusal: nothing is read at all.
    const known = await from(ip, ID, { EXPORTS: kv })
    expect(known.status).toBe(429)
    expect(known.headers.get('Retry-After')).toBe(refused.headers.get('Retry-After'))
    expect(reads).toHaveLength(1)
  })

  it('asks for the grace copy of a missing export only once the request is admitted', async () => {
    const ip = '192.0.2.42'
    const lookups: string[] = []
    const allocator = allocatorWith({
      lookup: (id: string) => {
        lookups.push(id)
        return Promise.resolve({ state: 'never_issued' })
      },
    })
    for (let i = 0; i < 3; i++) {
      expect((await from(ip, '654321', { ID_ALLOCATOR: allocator })).status).toBe(404)
    }
    expect(lookups).toHaveLength(3)
    expect((await from(ip, '654321', { ID_ALLOCATOR: allocator })).status).toBe(429)
    expect(lookups).toHaveLength(3)
  })
})
