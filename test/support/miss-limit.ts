/**
 * What the miss limit's HTTP tests share: budgets small enough to reach in a test, and a limiter
 * namespace that tells which of the object's methods each request called.
 */
import { env } from 'cloudflare:workers'

/** Budgets small enough to reach in a test; windows wide enough never to refuse here. */
export const SMALL_MISS_BUDGETS = {
  RATE_LIMIT_SHORT: '100/60',
  RATE_LIMIT_LONG: '1000/3600',
  RATE_LIMIT_CLIENT_MISSES: '3/600',
  RATE_LIMIT_PREFIX_MISSES: '5/600',
  RATE_LIMIT_FIRST_PENALTY_SECONDS: '60',
  RATE_LIMIT_LONGEST_PENALTY_SECONDS: '240',
}

/** The limiter namespace, each call of one of `methods` on its objects handed to `record`. */
export function countingLimiter(
  methods: readonly string[],
  record: (method: string) => void,
): Cloudflare.Env['RATE_LIMITER'] {
  return {
    getByName(name: string) {
      const real = env.RATE_LIMITER.getByName(name)
      return new Proxy(real, {
        get(target, key) {
          const value: unknown = Reflect.get(target, key)
          if (typeof key !== 'string' || !methods.includes(key)) return value
          return (...args: unknown[]) => {
            record(key)
            return (value as (...a: unknown[]) => unknown)(...args)
          }
        },
      })
    },
  } as unknown as Cloudflare.Env['RATE_LIMITER']
}
