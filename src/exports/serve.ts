import type { Context } from 'hono'
import type { Env } from '../config'
import { logIncident, note } from '../observability'
import { ServiceFailure } from '../http/errors'
import { EXPIRES_IN_HEADER } from '../contract/wire'
import { readGraceCopy } from './grace-copy-read'
import { isPublicationId } from '../contract/publication-id'
import { openExport, substitutedLength, type StoredExport } from '../storage/export-store'
import { defaultTag, sanitizeTag } from './tag'
import {
  pumpSubstituted,
  SinkClosedError,
  streamReadBytes,
  substituteWhole,
  type ExpectedValue,
} from './substituted-body'
import { substitutionFor } from './substitution-for-export'
import { MalformedExportError } from '../substitution'

/**
 * An export whose stored value and substituted body are both up to this size is read whole,
 * substituted in memory and sent as one buffer; any other is streamed. Real exports are 300-500
 * KB; at this size a request in flight holds at most about 2 MiB (the value and its substituted
 * copy), and a damaged value is answered with a 503 instead of a transfer cut short. The body's
 * size counts, not only the value's: a 100-character tag makes each 16-byte placeholder 6 times
 * longer, so a 1 MB value of placeholders would come out as 6.5 MB.
 */
export const WHOLE_READ_MAX_BYTES = 1024 * 1024

/**
 * GET and HEAD /server-api: finds the export (in KV, or while KV has not reached this location,
 * in the grace copy of the allocator shard that issued its ID), checks its lifetime and
 * substitutes the tag into it (substitution-for-export.ts, substituted-body.ts). Both sources
 * go through the same checks and give the same bytes and headers. HEAD answers with the headers
 * a GET would get, without reading or transforming the body.
 */
export async function serveExport(c: Context<{ Bindings: Env }>): Promise<Response> {
  // URLSearchParams.get returns the first of repeated parameters and never throws on bad
  // percent-encoding: a `%` not followed by two hex digits stays a literal `%` (which the tag
  // rules drop, keeping what follows: `%ZZ` becomes `ZZ`), and escaped bytes that are not UTF-8
  // decode to U+FFFD (dropped too).
  const query = new URL(c.req.url).searchParams
  const id = query.get('id')
  if (!isPublicationId(id)) throw new ServiceFailure({ reason: 'invalid_id', received: id })
  const tag = sanitizeTag(query.get('tag'), defaultTag(c.env))

  const stored = await findLiveExport(c.env, id, c.req.method === 'HEAD' ? 'metadata' : 'body')
  note(c, { id, exportBytes: stored.metadata.size, tagLength: tag.length })
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
  const expected: ExpectedValue = { metadata: stored.metadata, outputBytes: length }
  if (Math.max(stored.metadata.size, length) <= WHOLE_READ_MAX_BYTES) {
    let body: Uint8Array
    try {
      body = await substituteWhole(stored.body, expected, substitutionFor(stored.metadata, tag))
    } catch (reason) {
      const cause = new Error(readFailure(id, reason), { cause: reason })
      throw new ServiceFailure({ reason: 'storage_failed', cause })
    }
    return new Response(body, { status: 200, headers })
  }
  // A fixed length makes a body that comes out shorter or longer (a cut-short or corrupted
  // value) fail the transfer instead of ending as a 200 that parses. The client just sees a
  // failed transfer cut off, so the log is the one place that names the export.
  const { readable, writable } = new FixedLengthStream(length)
  const readBytes = streamReadBytes(tag.length)
  // The pump awaits each write before the next chunk, so one output buffer serves them all.
  const substitution = substitutionFor(stored.metadata, tag, true)
  const pumped = pumpSubstituted(stored.body, expected, substitution, writable, readBytes)
  void pumped.catch((reason: unknown) => {
    // The client stopped reading (workerd: "Network connection lost."): the export is fine.
    if (!(reason instanceof SinkClosedError)) {
      logIncident('export_stream_failed', readFailure(id, reason), reason, { id })
    }
  })
  return new Response(readable, { status: 200, headers })
}

/** Why the stored value of `id` could not be served whole, for the log. */
function readFailure(id: string, reason: unknown): string {
  if (reason instanceof MalformedExportError) {
    return `export ${id} is malformed: ${reason.reason} at byte ${reason.offset}`
  }
  return `export ${id} could not be read: ${String(reason)}`
}

async function findLiveExport(
  env: Env,
  id: string,
  part: 'metadata' | 'body',
): Promise<StoredExport> {
  let stored: StoredExport | null
  try {
    stored = await openExport(env.EXPORTS, id)
  } catch (cause) {
    throw new ServiceFailure({ reason: 'storage_failed', cause })
  }
  stored ??= await readGraceCopy(env, id, part)
  if (Date.now() >= stored.metadata.expiresAt) {
    void stored.body.cancel()
    throw new ServiceFailure({ reason: 'expired', id })
  }
  return stored
}
