/**
 * The service that some e2e files share, started once per run by the project's global setup
 * (shared-service-setup.ts, which lists them): each start of `npm start` costs seconds of both
 * cores, and these files need it exactly as it starts with the tests' token, each asking for IDs
 * of its own. A file that needs a setting, a state or a restart of its own starts its own
 * (local-service.ts).
 */
import { inject } from 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    sharedServiceUrl?: string
  }
}

/** The shared service, as its address; in a file that the global setup lists. */
export function sharedService(): { url: string } {
  const url = inject('sharedServiceUrl')
  if (url === undefined) {
    throw new Error('no shared service in this run: list the file in shared-service-setup.ts')
  }
  return { url }
}
