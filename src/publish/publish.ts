/**
 * Publishing, the one function behind the editor API, the RPC entrypoint and the command line:
 * validate, hold against the export policy, reserve an ID together with the start of its grace copy, store the rest of the copy,
 * then store in KV through the storage module. A failed publish stores nothing and gives its ID
 * back, so no ID leaks.
 *
 * The copy is complete before KV is written and before the 201: from the moment a caller can
 * know the ID, the shard that a missing KV entry sends every read to has the export.
 */
import { exportTtlSeconds, publishGraceSeconds, type Env } from '../config'
import { exportMetadata, putExport } from '../storage'
import { ServiceFailure } from '../http'
import { logIncident } from '../observability'
import { TimeoutError } from '../timeout'
import { allocateId, appendGraceCopy, graceCopyStart, releaseId } from '../ids'
import { enforceExportPolicy, exportPolicyCheck } from './export-policy'
import { quickCommand, quickCommandPrefix } from './quick-command'
import { validateExport } from './validate'
import type { PublishOptions, PublishResult } from '../contract/publish-rpc'

/** Publishes the export document `document` (its exact bytes) under a new ID. */
export async function publish(
  env: Env,
  document: Uint8Array,
  options: PublishOptions = {},
): Promise<PublishResult> {
  const check = exportPolicyCheck(env, document)
  const counted = validateExport(document, check?.observer)
  enforceExportPolicy(check)
  const prefix = quickCommandPrefix(options.quickCommandPrefix)
  const ttlSeconds = exportTtlSeconds(env)
  const publishedAt = Date.now()
  const metadata = exportMetadata(document, counted, publishedAt, ttlSeconds)
  const { expiresAt } = metadata
  const graceSeconds = publishGraceSeconds(env)
  const copy =
    graceSeconds > 0
      ? graceCopyStart(document, { metadata, dropAt: publishedAt + graceSeconds * 1000 })
      : null

  const id = await allocateId(env, expiresAt, copy)
  if (copy !== null) {
    try {
      await appendGraceCopy(env, id, expiresAt, document)
    } catch (cause) {
      // Nothing is in KV yet, and the shard appends only to the copy the release deletes.
      await releaseId(env, id, expiresAt)
      throw new ServiceFailure({ reason: 'storage_failed', cause })
    }
  }
  try {
    await putExport(env.EXPORTS, id, document, metadata)
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
