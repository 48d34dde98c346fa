// Types of local-service.mjs, for the TypeScript end-to-end tests.

export interface LocalService {
  url: string
  /** The service's `--persist-to` folder: local KV, Durable Objects and caches. */
  stateDir: string
  stop(): Promise<void>
  /**
   * Kills the whole process group (wrangler, workerd and all) with SIGKILL, as a crash would,
   * and resolves once every process of it is gone. Only with `processGroup`.
   */
  crash(): Promise<void>
}

export interface LocalServiceOptions {
  /** Persist state in this folder and leave it there on stop (default: a fresh one, removed). */
  stateDir?: string
  /** The name of the fresh state folder starts with this. */
  statePrefix?: string
  /**
   * The limits a plain `npm start` applies on a developer's machine (the miss limit off) instead
   * of production's, which tests and tools get by default.
   */
  localLimits?: boolean
  /** Start the service in a process group of its own, so that `crash()` can kill all of it. */
  processGroup?: boolean
}

export function freePort(): Promise<number>

export function startLocalService(
  vars?: Record<string, string>,
  options?: LocalServiceOptions,
): Promise<LocalService>
