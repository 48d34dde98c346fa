/**
 * Publishing, the one function behind the editor API, the RPC entrypoint and the command line:
 * validate, reserve an ID, store through the storage module. A failed publish stores nothing
 * and gives its ID back, so no ID leaks.
 */
import { exportTtlSeconds, type Env } from '../config'
import { putExport } from '../exports/store'
import { ServiceFailure } from '../http/errors'
import { logIncident } from '../observability'
import { TimeoutError } from '../timeout'
import { allocateId, releaseId } from './allocator-client'
import { quickCommand, quickCommandPrefix } from './quick-command'
import { validateExport } from './validate'

/** Options of a publish. */
export interface PublishOptions {
  /** The user's quick-command setting, replacing `model spawn`; the default when absent. */
  quickCommandPrefix?: string | null
}

/** What the editor shows after publishing. */
export interface PublishResult {
  /** The six-digit publication ID. */
  id: string
  /** End of the lifetime, ISO 8601 (UTC). */
  expiresAt: string
  /** Whole seconds from publication to `expiresAt`. */
  expiresInSeconds: number
  /** The command to copy, e.g. `/model spawn 123456`. */
  quickCommand: string
}

/** Publishes the export document `document` (its exact bytes) under a new ID. */
export async function publish(
  env: Env,
  document: Uint8Array,
  options: PublishOptions = {},
): Promise<PublishResult> {
  const counted = validateExport(document)
  const prefix = quickCommandPrefix(options.quickCommandPrefix)
  const ttlSeconds = exportTtlSeconds(env)
  const publishedAt = Date.now()
  const expiresAt = publishedAt + ttlSeconds * 1000

  const id = await allocateId(env, expiresAt)
  try {
    await putExport(env.EXPORTS, id, document, counted, publishedAt, ttlSeconds)
  } catch (cause) {
    // A write that timed out may still land; its ID then stays reserved until its quarantine
    // ends, so it can never serve this document under someone else's publish.
    if (cause instanceof TimeoutError) {
      logIncident('export_write_timed_out', `storing export ${id} timed out`, cause, { id })
    } else {
      await releaseId(env, id, expiresAt)
    }
    throw new ServiceFailure({ reason: 'storage_failed', cause })
  }
  return {
    id,
    expiresAt: new Date(expiresAt).toISOString(),
    expiresInSeconds: ttlSeconds,
    quickCommand: quickCommand(prefix, id),
  }
}
