import type { Context } from 'hono'
import type { Env } from '../config'
import { note } from '../observability'
import { admission, notAdmitted } from '../rate-limit'
import { ServiceFailure } from '../http'
import { EXPIRES_IN_HEADER, TAG_HEADER } from '../contract/wire'
import { readGraceCopy } from './grace-copy-read'
import { isPublicationId } from '../contract/publication-id'
import { openExport, substitutedLength, type StoredExport } from '../storage'
import { defaultTag, sanitizeTag } from './tag'
import { substitutedBody } from './substituted-body'

/**
 * GET and HEAD /server-api: finds the export (in KV, or while KV has not reached this location,
 * in the grace copy of the allocator shard that issued its ID), checks its lifetime and
 * substitutes the tag into it (substituted-body.ts). Both sources go through the same checks and
 * give the same bytes and headers. HEAD answers with the headers a GET would get, without
 * reading or transforming the body.
 *
 * The KV read starts before the rate limiter's verdict and overlaps it (src/rate-limit/);
 * a refused request drops it unread. Nothing else starts before the verdict: the grace copy is
 * asked for only once the request is admitted.
 */
export async function serveExport(c: Context<{ Bindings: Env }>): Promise<Response> {
  // URLSearchParams.get returns the first of repeated parameters and never throws on bad
  // percent-encoding: a `%` not followed by two hex digits stays a literal `%` (which the tag
  // rules drop, keeping what follows: `%ZZ` becomes `ZZ`), and escaped bytes that are not UTF-8
  // decode to U+FFFD (dropped too).
  const query = new URL(c.req.url).searchParams
  const id = query.get('id')
  const valid = isPublicationId(id)
  const reading = valid ? startReading(c.env, id) : null
  if (!(await admission(c))) {
    if (reading !== null) drop(reading)
    return notAdmitted(c)
  }
  if (!valid || reading === null) throw new ServiceFailure({ reason: 'invalid_id', received: id })
  const tag = sanitizeTag(query.get('tag'), defaultTag(c.env))

  const part = c.req.method === 'HEAD' ? 'metadata' : 'body'
  const stored = await findLiveExport(c.env, id, reading, part)
  note(c, { id: id, exportBytes: stored.metadata.size, tagLength: tag.length })
  const now = Date.now()
  const outputBytes = substitutedLength(stored.metadata, tag.length)
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(outputBytes),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    [EXPIRES_IN_HEADER]: String(Math.floor((stored.metadata.expiresAt - now) / 1000)),
    [TAG_HEADER]: tag,
  }
  if (c.req.method === 'HEAD') {
    void stored.body.cancel()
    return new Response(null, { status: 200, headers })
  }
  const body = await substitutedBody({ id: id, stored, tag, outputBytes })
  return new Response(body, { status: 200, headers })
}

/** The KV read of `id`, started now and awaited later; its failure is handled where awaited. */
function startReading(env: Env, id: string): Promise<StoredExport | null> {
  const reading = openExport(env.EXPORTS, id)
  reading.catch(() => {})
  return reading
}

/** Lets a started read go: its body, if one comes, is cancelled unread. */
function drop(reading: Promise<StoredExport | null>): void {
  void reading.then(
    (stored) => stored?.body.cancel(),
    () => {},
  )
}

async function findLiveExport(
  env: Env,
  id: string,
  reading: Promise<StoredExport | null>,
  part: 'metadata' | 'body',
): Promise<StoredExport> {
  let stored: StoredExport | null
  try {
    stored = await reading
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
