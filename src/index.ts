/**
 * The Worker: the app (src/app.ts) over the bindings, and the Durable Object classes it uses.
 */
import { env } from 'cloudflare:workers'
import { createApp } from './app'
import type { Env } from './config'
import { deprecatedUses } from './deprecation'
import { defaultTag } from './exports'
import { exemptNetworks } from './rate-limit'
import { withSimulatedKvLag } from './storage'

// A setting that cannot work stops the Worker at startup (and `wrangler deploy`), with the
// setting's name in the message, instead of answering every request with a 500.
defaultTag(env)
deprecatedUses(env)
exemptNetworks(env)

const app = createApp()

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    app.fetch(request, withSimulatedKvLag(env), ctx),
} satisfies ExportedHandler<Env>
export { PrefixRateLimiter } from './rate-limit'
export { IdAllocator } from './ids'
export { PublishService } from './publish'
