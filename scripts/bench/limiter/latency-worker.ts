/**
 * Bench-only Worker: the app as src/index.ts builds it (`createApp`), with or without the rate
 * limiter (`WITH_LIMITER=false`), over bindings that wait a fixed time before each call: the
 * limiter's object `LIMITER_DELAY_MS`, KV `KV_DELAY_MS`. In production both are network waits
 * (the object may sit on another machine, a KV read away from its cache takes tens of ms); on
 * one machine they take next to nothing, so this is how the bench sees whether the two overlap.
 * Its RATE_LIMITER and ID_ALLOCATOR bindings point at the real Worker's objects.
 */
import { createApp } from '../../../src/app'
import type { Env } from '../../../src/config'

interface LatencyEnv extends Env {
  LIMITER_DELAY_MS: string
  KV_DELAY_MS: string
  WITH_LIMITER: string
}

const withLimiter = createApp()
const withoutLimiter = createApp({ rateLimit: false })
/** The delayed bindings, made once per settings object. */
const delayedEnvs = new WeakMap<LatencyEnv, Env>()

export default {
  fetch(request: Request, env: LatencyEnv, ctx: ExecutionContext): Promise<Response> | Response {
    let delayed = delayedEnvs.get(env)
    if (delayed === undefined) {
      delayed = {
        ...env,
        RATE_LIMITER: delayedLimiter(env.RATE_LIMITER, Number(env.LIMITER_DELAY_MS)),
        EXPORTS: delayedKv(env.EXPORTS, Number(env.KV_DELAY_MS)),
      }
      delayedEnvs.set(env, delayed)
    }
    const app = env.WITH_LIMITER === 'false' ? withoutLimiter : withLimiter
    return app.fetch(request, delayed, ctx)
  },
}

/** The limiter's namespace, each `hit` waiting `ms` before it goes to the object. */
function delayedLimiter(namespace: Env['RATE_LIMITER'], ms: number): Env['RATE_LIMITER'] {
  return {
    getByName(name: string) {
      const stub = namespace.getByName(name)
      return {
        hit: async (...args: Parameters<typeof stub.hit>) => {
          await sleep(ms)
          return stub.hit(...args)
        },
      }
    },
  } as unknown as Env['RATE_LIMITER']
}

/** The KV namespace, each read with metadata waiting `ms` before it goes to KV. */
function delayedKv(kv: KVNamespace, ms: number): KVNamespace {
  return new Proxy(kv, {
    get(target, key) {
      if (key === 'getWithMetadata') {
        return async (name: string, options: KVNamespaceGetOptions<'stream'>) => {
          await sleep(ms)
          return target.getWithMetadata(name, options)
        }
      }
      const member: unknown = Reflect.get(target, key)
      return typeof member === 'function' ? member.bind(target) : member
    },
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
