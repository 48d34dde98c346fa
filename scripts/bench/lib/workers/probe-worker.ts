/**
 * Bench-only Worker: times Durable Object calls from inside workerd, in batches (Miniflare's
 * workerd advances `performance.now()` during a request, at 1 ms resolution).
 *
 *   GET /limiter?n=N&keys=K   N sequential admissions (`PrefixRateLimiter.hit`) over K client keys
 *   GET /echo?n=N&keys=K      the same calls to `EchoObject.ping`: a bare RPC, no storage
 *   GET /write?n=N&keys=K     the same calls to `EchoObject.write`: the RPC plus one storage write
 *   GET /alloc?count=N&release=1
 *                             N sequential `allocateId` calls (src/ids/allocator-client),
 *                             then, untimed, `releaseId` of each one when asked; otherwise the
 *                             answer lists the IDs, for a later
 *   POST /release             body `{ ids, expiresAt }`: `releaseId` of each
 */
import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../../../../src/config'
import {
  DEFAULT_MISS_SETTINGS,
  decide,
  type RateVerdict,
  type WindowRule,
} from '../../../../src/rate-limit/testing'
import { rateLimitRules } from '../../../../src/rate-limit/index'
import { allocateId, releaseId } from '../../../../src/ids'

export { IdAllocator } from '../../../../src/ids'
export { PrefixRateLimiter } from '../../../../src/rate-limit/index'

interface ProbeEnv extends Env {
  ECHO: DurableObjectNamespace<EchoObject>
}

/**
 * The baseline of a limiter call: the same RPC, answered by the same pure decision
 * (`decide`, src/rate-limit/windows.ts) without reading or writing storage.
 */
export class EchoObject extends DurableObject {
  ping(rules: WindowRule[]): RateVerdict {
    return decide(rules, {}, Date.now()).verdict
  }

  /** `ping` plus the one write a limiter hit makes: what the storage commit costs. */
  write(rules: WindowRule[]): RateVerdict {
    this.ctx.storage.kv.put('windows', { at: Date.now() })
    return this.ping(rules)
  }
}

export default {
  async fetch(request: Request, env: ProbeEnv): Promise<Response> {
    const url = new URL(request.url)
    const n = Number(url.searchParams.get('n') ?? url.searchParams.get('count') ?? '1')
    const keys = Number(url.searchParams.get('keys') ?? '1')
    const rules = rateLimitRules(env)
    if (url.pathname === '/limiter' || url.pathname === '/echo' || url.pathname === '/write') {
      const start = performance.now()
      for (let i = 0; i < n; i++) {
        const key = `10.0.${(i % keys) >> 8}.${(i % keys) & 255}`
        if (url.pathname === '/limiter')
          await env.RATE_LIMITER.getByName(key).hit(key, { rules, misses: DEFAULT_MISS_SETTINGS })
        else if (url.pathname === '/echo') await env.ECHO.getByName(key).ping(rules)
        else await env.ECHO.getByName(key).write(rules)
      }
      return Response.json({ ms: performance.now() - start, calls: n })
    }
    if (url.pathname === '/alloc') {
      const expiresAt = Date.now() + 600_000
      const ids: string[] = []
      const start = performance.now()
      for (let i = 0; i < n; i++) ids.push(await allocateId(env, expiresAt))
      const ms = performance.now() - start
      const distinct = new Set(ids).size
      if (url.searchParams.get('release') !== '1') {
        return Response.json({ ms, calls: n, distinct, ids, expiresAt })
      }
      for (const id of ids) await releaseId(env, id, expiresAt)
      return Response.json({ ms, calls: n, distinct })
    }
    if (url.pathname === '/release' && request.method === 'POST') {
      const { ids, expiresAt } = await request.json<{ ids: string[]; expiresAt: number }>()
      for (const id of ids) await releaseId(env, id, expiresAt)
      return Response.json({ released: ids.length })
    }
    return new Response('not found', { status: 404 })
  },
}
