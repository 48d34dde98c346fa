/**
 * The Worker: the app (src/app.ts) over the bindings, and the Durable Object classes it uses.
 */
import { createApp } from './app'
import type { Env } from './config'
import { withSimulatedKvLag } from './storage/simulated-kv-lag'

const app = createApp()

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    app.fetch(request, withSimulatedKvLag(env), ctx),
} satisfies ExportedHandler<Env>
export { RateLimiter } from './rate-limit/rate-limiter'
export { IdAllocator } from './ids/id-allocator'
export { PublishService } from './publish/entrypoint'
