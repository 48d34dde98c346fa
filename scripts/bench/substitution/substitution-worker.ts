/**
 * Bench-only Worker: runs the substitution benchmark's variants inside workerd, on inputs the runner
 * uploads once. `/run` answers with its own timing of the batch (Miniflare's workerd advances
 * `performance.now()` during computation, at 1 ms resolution; deployed Workers would not), and
 * the runner also times the request from outside.
 *
 *   POST /input?name=N       body: the input bytes, kept in memory
 *   GET  /check?name=N       the outputs of every variant compared (substitution-cases.ts)
 *   GET  /run?name=N&variant=V&iterations=K   { ms, outputBytes }
 */
import { VARIANTS, checkOutputs, runVariant, type VariantName } from '../lib/substitution-cases'

const inputs = new Map<string, Uint8Array>()

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const name = url.searchParams.get('name') ?? ''
    if (url.pathname === '/input' && request.method === 'POST') {
      inputs.set(name, new Uint8Array(await request.arrayBuffer()))
      return new Response(null, { status: 204 })
    }
    const input = inputs.get(name)
    if (input === undefined) return new Response(`no input ${name}`, { status: 404 })
    if (url.pathname === '/check') return Response.json(await checkOutputs(input))
    if (url.pathname === '/run') {
      const variant = url.searchParams.get('variant') as VariantName
      if (!VARIANTS.includes(variant)) return new Response('bad variant', { status: 400 })
      const iterations = Number(url.searchParams.get('iterations') ?? '1')
      let outputBytes = 0
      const start = performance.now()
      for (let i = 0; i < iterations; i++) {
        for (const part of await runVariant(variant, input)) outputBytes += part.length
      }
      const ms = performance.now() - start
      return Response.json({ ms, outputBytes })
    }
    return new Response('not found', { status: 404 })
  },
}
