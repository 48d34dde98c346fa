import type { Context } from 'hono'
import type { Env } from '../config'
import { ServiceFailure } from '../http/errors'
import { whyMissing } from '../publish/allocator-client'
import { isPublicationId } from './publication-id'
import { openExport, substitutedLength, type StoredExport } from './store'
import { sanitizeTag } from './tag'
import { pumpThroughWalker, SinkClosedError } from './pump'
import { MalformedExportError } from './walker'

/** Header carrying the whole seconds an export has left (a duration, like X-RateLimit-Reset). */
export const EXPIRES_IN_HEADER = 'X-Export-Expires-In'

/**
 * GET and HEAD /server-api: finds the export, checks its lifetime and streams it through the
 * tag walker. HEAD answers with the headers a GET would get, without reading or transforming
 * the body.
 */
export async function serveExport(c: Context<{ Bindings: Env }>): Promise<Response> {
  // URLSearchParams.get returns the first of repeated parameters and never throws on bad
  // percent-encoding (it decodes to U+FFFD, which the tag rules then drop).
  const query = new URL(c.req.url).searchParams
  const id = query.get('id')
  if (!isPublicationId(id)) throw new ServiceFailure({ reason: 'invalid_id', received: id })
  const tag = sanitizeTag(query.get('tag'))

  const stored = await findLiveExport(c.env, id)
  const now = Date.now()
  const length = substitutedLength(stored.metadata, tag.length)
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(length),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    [EXPIRES_IN_HEADER]: String(Math.floor((stored.metadata.expiresAt - now) / 1000)),
  }
  if (c.req.method === 'HEAD') {
    void stored.body.cancel()
    return new Response(null, { status: 200, headers })
  }
  // A fixed length makes a body that comes out shorter or longer (a cut-short or corrupted
  // value) fail the transfer instead of ending as a 200 that parses.
  // The client just sees a failed transfer cut off, so the log is the one place that names the
  // export.
  const { readable, writable } = new FixedLengthStream(length)
  void pumpThroughWalker(stored.body, stored.metadata.size, tag, writable).catch(
    (reason: unknown) => logFailedRead(id, reason),
  )
  return new Response(readable, { status: 200, headers })
}

/** Logs why the stored value of `id` could not be served whole (the transfer is aborted). */
function logFailedRead(id: string, reason: unknown): void {
  // The client stopped reading (workerd: "Network connection lost."): the export is fine.
  if (reason instanceof SinkClosedError) return
  if (reason instanceof MalformedExportError) {
    console.error(`export ${id} is malformed: ${reason.reason} at byte ${reason.offset}`)
  } else {
    console.error(`export ${id} could not be read: ${String(reason)}`)
  }
}

async function findLiveExport(env: Env, id: string): Promise<StoredExport> {
  let stored: StoredExport | null
  try {
    stored = await openExport(env.EXPORTS, id)
  } catch (cause) {
    throw new ServiceFailure({ reason: 'storage_failed', cause })
  }
  if (stored === null) throw new ServiceFailure(await whyMissing(env, id))
  if (Date.now() >= stored.metadata.expiresAt) {
    void stored.body.cancel()
    throw new ServiceFailure({ reason: 'expired', id })
  }
  return stored
}
