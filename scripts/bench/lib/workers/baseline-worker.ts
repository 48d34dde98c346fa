/**
 * Bench-only Worker: the least a Worker can do for each request the service answers, against
 * the same KV namespace. No Hono, no rate limiter, no substitution: GET streams the stored value
 * untouched (with the same fixed length framing as the service), HEAD reads the metadata, a miss
 * is a constant 404, OPTIONS a constant 204. `/too-many` is a constant 429 and `POST /kv-put`
 * stores the body under a new key: the baselines of a refusal and of a publish.
 */
import type { ExportMetadata } from '../../../../src/storage'
import { exportKey } from '../../../../test/support/storage-layout'
import { SERVER_API_PATH } from '../../../../src/contract/routes'
import { RETRY_AFTER_HEADER } from '../../../../src/contract/wire'

interface Env {
  EXPORTS: KVNamespace
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' }

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/too-many') {
      return new Response('{"error":{"code":"rate_limited","retryAfterSeconds":60}}', {
        status: 429,
        headers: { ...JSON_HEADERS, [RETRY_AFTER_HEADER]: '60' },
      })
    }
    if (url.pathname === '/kv-put' && request.method === 'POST') {
      const body = await request.arrayBuffer()
      const id = crypto.randomUUID()
      await env.EXPORTS.put(`bench-put:${id}`, body, { expirationTtl: 600 })
      return Response.json({ id }, { status: 201 })
    }
    if (url.pathname !== SERVER_API_PATH) return new Response(null, { status: 404 })
    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { 'Access-Control-Allow-Origin': '*' } })
    }
    const key = exportKey(url.searchParams.get('id') ?? '')
    const { value, metadata } = await env.EXPORTS.getWithMetadata<ExportMetadata>(key, {
      type: 'stream',
    })
    if (value === null || metadata === null) {
      return new Response('{"error":{"code":"not_found"}}', { status: 404, headers: JSON_HEADERS })
    }
    const headers = { ...JSON_HEADERS, 'Content-Length': String(metadata.size) }
    if (request.method === 'HEAD') {
      void value.cancel()
      return new Response(null, { headers })
    }
    return new Response(value.pipeThrough(new FixedLengthStream(metadata.size)), { headers })
  },
}
