/**
 * The real service for end-to-end tests that run in Node (the command line, the typed client,
 * the browser), started the one way scripts/local-service.mjs starts it, with the tests' token.
 */
import {
  startLocalService as startService,
  type LocalService,
  type LocalServiceOptions,
} from '../../scripts/local-service.mjs'

export type { LocalService } from '../../scripts/local-service.mjs'

export const E2E_PUBLISH_TOKEN = 'e2e-publish-token'

/** Starts `npm start` on a free port with the given vars; resolves once it answers HTTP. */
export function startLocalService(
  vars: Record<string, string> = {},
  options: LocalServiceOptions = {},
): Promise<LocalService> {
  return startService(
    { PUBLISH_TOKEN: E2E_PUBLISH_TOKEN, ...vars },
    { statePrefix: 'export-service-e2e-', ...options },
  )
}
