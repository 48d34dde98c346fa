/** The service the soak loads when no `--url` is given: `npm start` with the soak's settings. */
import { startLocalService } from '../local-service.mjs'

export const SOAK_TOKEN = 'soak-publish-token'

/** `npm start` on a free loopback port with fresh state, the soak's limits and KV lag. */
export async function startService(options) {
  let service
  try {
    service = await startLocalService(
      {
        PUBLISH_TOKEN: SOAK_TOKEN,
        RATE_LIMIT_SHORT: options.short,
        RATE_LIMIT_LONG: options.long,
        // The soak checks the request windows from the headers, and most of its requests miss:
        // the miss limit would refuse them for its own reasons (tested on its own, in
        // test/rate-limit/rate-limit-misses-http.test.ts).
        RATE_LIMIT_MISSES: 'off',
        SIMULATED_KV_LAG_SECONDS: String(options.kvLag),
      },
      { statePrefix: 'export-service-soak-' },
    )
  } catch (error) {
    console.error(`the service did not start: ${error.message}`)
    process.exit(1)
  }
  const stop = () => service.stop()
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => void stop().then(() => process.exit(130)))
  }
  return { url: service.url, stop }
}
