import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import worker from '../../src/index'
import { exportMetadata, putExport } from '../../src/storage'
import { validateExport } from '../../src/publish/testing'

export const BASE = 'http://service.test'

/** Sends a request to the Worker, as a caller on the internet would. */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(BASE + path, init))
}

/** Stores a document as publishing would (validated, its placeholders counted), through the storage module. */
export async function storeExport(
  id: string,
  document: string | Uint8Array,
  options: { ttlSeconds?: number; publishedAt?: number } = {},
): Promise<void> {
  const bytes = typeof document === 'string' ? new TextEncoder().encode(document) : document
  const metadata = exportMetadata(
    bytes,
    validateExport(bytes),
    options.publishedAt ?? Date.now(),
    options.ttlSeconds ?? 600,
  )
  await putExport(env.EXPORTS, id, bytes, metadata)
}

/**
 * Sends a request to the Worker with some vars or bindings replaced: how tests shorten limits
 * or make storage fail. It still runs the real Worker in workerd.
 */
export async function callWithEnv(
  overrides: Partial<Cloudflare.Env>,
  path: string,
  init?: RequestInit,
): Promise<Response> {
  const ctx = createExecutionContext()
  const response = await worker.fetch(new Request(BASE + path, init), { ...env, ...overrides }, ctx)
  await waitOnExecutionContext(ctx)
  return response
}

/** The real KV binding with its `put` replaced: how tests make writes fail or hang. */
export function kvWithPut(put: () => Promise<unknown>): KVNamespace {
  return new Proxy(env.EXPORTS, {
    get(target, key) {
      if (key === 'put') return put
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * The allocator namespace with some of its methods replaced; the rest reach the real objects.
 * `getByName` is what allocator-client.ts uses.
 */
export function allocatorWith(
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

/** What the log got, one string per call; the service logs JSON lines (src/observability). */
export function logged(log: { mock: { calls: unknown[][] } }): string[] {
  return log.mock.calls.map((args) =>
    args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '),
  )
}

/**
 * `vi.waitFor` options for something the Worker does after its answer: a guard against a hang,
 * not a speed bound (vitest's default gives up after 1 s, which a busy machine can exceed).
 */
export const WAIT_FOR = { timeout: 20_000, interval: 20 }

/** A test's own time limit where the service waits out one of its timeouts: a hang guard. */
export const HANG_GUARD_MS = 60_000
