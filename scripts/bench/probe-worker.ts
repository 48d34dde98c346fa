/**
 * Bench-only Worker: times Durable Object calls from inside workerd, in batches (Miniflare's
 * workerd advances `performance.now()` during a request, at 1 ms resolution).
 *
 *   GET /limiter?n=N&keys=K   N sequential `RateLimiter.hit` calls over K client keys
 *   GET /echo?n=N&keys=K      the same calls to `EchoObject.ping`: a bare RPC, no storage
 *   GET /alloc?count=N&release=1
 *                             N sequential `allocateId` calls (src/publish/allocator-client),
 *                             then, untimed, `releaseId` of each one when asked
 */
import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../../src/config'
import { allocateId, releaseId } from '../../src/publish/allocator-client'
import { rateLimitRules } from '../../src/rate-limit/middleware'
import type { RateVerdict, WindowRule } from '../../src/rate-limit/windows'

export { IdAllocator } from '../../src/publish/id-allocator'
export { RateLimiter } from '../../src/rate-limit/rate-limiter'

interface ProbeEnv extends Env {
  ECHO: DurableObjectNamespace<EchoObject>
}

/** The baseline of a limiter call: the same RPC shape, answered without storage. */
export class EchoObject extends DurableObject {
  ping(rules: WindowRule[]): RateVerdict {
    return {
      admitted: true,
      retryAfterSeconds: 0,
      windows: rules.map((r) => ({ name: r.name, limit: r.limit, remaining: 1, resetSeconds: 1 })),
    }
  }
}

export default {
  async fetch(request: Request, env: ProbeEnv): Promise<Response> {
    const url = new URL(request.url)
    const n = Number(url.searchParams.get('n') ?? url.searchParams.get('count') ?? '1')
    const keys = Number(url.searchParams.get('keys') ?? '1')
    const rules = rateLimitRules(env)
    if (url.pathname === '/limiter' || url.pathname === '/echo') {
      const start = performance.now()
      for (let i = 0; i < n; i++) {
        const key = `10.0.${(i % keys) >> 8}.${(i % keys) & 255}`
        if (url.pathname === '/limiter') await env.RATE_LIMITER.getByName(key).hit(rules)
        else await env.ECHO.getByName(key).ping(rules)
      }
      return Response.json({ ms: performance.now() - start, calls: n })
    }
    if (url.pathname === '/alloc') {
      const expiresAt = Date.now() + 600_000
      const ids: string[] = []
      const start = performance.now()
      for (let i = 0; i < n; i++) ids.push(await allocateId(env, expiresAt))
      const ms = performance.now() - start
      if (url.searchParams.get('release') === '1') {
        for (const id of ids) await releaseId(env, id, expiresAt)
      }
      return Response.json({ ms, calls: n, distinct: new Set(ids).size })
    }
    return new Response('not found', { status: 404 })
  },
}
