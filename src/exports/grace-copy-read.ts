/**
 * Why an export is missing from KV, and the read path's way around it: the allocator shard that
 * issued the ID keeps a grace copy while KV has not reached this location (src/ids/). The policy
 * (which state of an ID is 404, 410 or 503) belongs to the read path; the allocator only says
 * what it knows.
 */
import { ServiceFailure, type Failure } from '../http'
import { LOOKUP_TIMEOUT_MS, lookupId, type CopyPart, type GraceCopy, type IdState } from '../ids'
import { withTimeout } from '../timeout'
import type { Env } from '../config'
import type { StoredExport } from '../storage'

/** Retry-After of a live ID that this location's KV does not show yet. */
export const NOT_VISIBLE_RETRY_AFTER_SECONDS = 5

/**
 * The export of an ID that KV does not show (yet): the grace copy its shard keeps, metadata
 * only for `part: 'metadata'` (HEAD). Otherwise throws why there is none: never issued (404),
 * expired and in quarantine (410), or live but past its grace and not yet visible in this
 * location's KV (503 `not_ready`). A shard that fails or does not answer within
 * `LOOKUP_TIMEOUT_MS` is `503 unavailable`: the ID may be live, with its copy only there.
 */
export async function readGraceCopy(
  env: Env,
  id: string,
  part: Exclude<CopyPart, 'none'>,
): Promise<StoredExport> {
  const lookup = lookupId(env, id, part)
  let known: IdState
  try {
    known = await withTimeout(lookup, LOOKUP_TIMEOUT_MS, 'ID lookup')
  } catch (cause) {
    // An answer after the timeout may still bring a stream: let it go.
    void lookup.then(cancelCopy, () => {})
    throw new ServiceFailure({ reason: 'storage_failed', cause, unsettled: true })
  }
  if (known.state === 'live' && known.copy !== undefined) {
    return { metadata: known.copy.metadata, body: copyBody(known.copy) }
  }
  throw new ServiceFailure(whyMissing(id, known))
}

/** Why an ID in this state cannot be served from the allocator. */
export function whyMissing(id: string, known: IdState): Failure {
  switch (known.state) {
    case 'never_issued':
      return { reason: 'unknown_id', id }
    case 'quarantined':
      return { reason: 'expired', id }
    case 'live':
      return { reason: 'not_yet_visible', id, retryAfterSeconds: NOT_VISIBLE_RETRY_AFTER_SECONDS }
  }
}

/** A copy's bytes as the read path takes them: a stream (empty when only metadata came). */
function copyBody(copy: GraceCopy): ReadableStream<Uint8Array> {
  if (copy.body instanceof ReadableStream) return copy.body
  return new Response(copy.body ?? new Uint8Array(0)).body!
}

function cancelCopy(known: IdState): void {
  if (known.state === 'live' && known.copy?.body instanceof ReadableStream) {
    void known.copy.body.cancel()
  }
}
