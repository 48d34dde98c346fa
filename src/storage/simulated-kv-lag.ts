/**
 * Development and tests only: `SIMULATED_KV_LAG_SECONDS` makes the Worker act as a location that
 * KV has not reached yet, where an export published less than that long ago is missing. It is a
 * wrapper around the `EXPORTS` binding, put in place when the var is set (`npm start -- --var
 * SIMULATED_KV_LAG_SECONDS:30`, the tests, the soak); without it the binding is the real one and
 * no read looks at the var.
 */
import { wholeNumber, type Env } from '../config'
import { isExportMetadata } from './export-metadata'

/** `env` with its `EXPORTS` lagging when `SIMULATED_KV_LAG_SECONDS` is set, else `env` itself. */
export function withSimulatedKvLag<E extends Env>(env: E): E {
  if (!env.SIMULATED_KV_LAG_SECONDS) return env
  const lagSeconds = simulatedKvLagSeconds(env)
  return { ...env, EXPORTS: laggingKv(env.EXPORTS, lagSeconds * 1000) }
}

/** The `SIMULATED_KV_LAG_SECONDS` setting: whole seconds, 0 (no lag) when unset. */
export function simulatedKvLagSeconds(env: Pick<Env, 'SIMULATED_KV_LAG_SECONDS'>): number {
  return wholeNumber(env.SIMULATED_KV_LAG_SECONDS, 0, 'SIMULATED_KV_LAG_SECONDS')
}

/** `kv` whose reads with metadata miss every export published less than `lagMs` ago. */
function laggingKv(kv: KVNamespace, lagMs: number): KVNamespace {
  // One key at a time, as the read path asks; the options pass through whatever the type.
  const getWithMetadata = async (key: string, options: KVNamespaceGetOptions<'stream'>) => {
    const found = await kv.getWithMetadata(key, options)
    const { value, metadata } = found
    if (value === null || !isExportMetadata(metadata)) return found
    if (Date.now() - metadata.publishedAt >= lagMs) return found
    if (value instanceof ReadableStream) void value.cancel()
    return { value: null, metadata: null, cacheStatus: null }
  }
  return new Proxy(kv, {
    get(target, key) {
      if (key === 'getWithMetadata') return getWithMetadata
      const member: unknown = Reflect.get(target, key)
      return typeof member === 'function' ? member.bind(target) : member
    },
  })
}
