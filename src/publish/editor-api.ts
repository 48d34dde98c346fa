/**
 * The editor API, behind the publish token. POST /editor-api/exports: the editor's backend
 * publishes an export. Checks run in the order a caller can fix them: token (before any body
 * byte is read), media type, size, then the document. GET /editor-api/status: how full the ID
 * space is, for operators. No CORS here on purpose: the token belongs on a server, never in a
 * browser.
 */
import { Hono } from 'hono'
import type { Env } from '../config'
import { ServiceFailure } from '../http'
import { EDITOR_EXPORTS_METHODS, EDITOR_STATUS_METHODS, MAX_EXPORT_BYTES } from '../contract/wire'
import { EDITOR_EXPORTS_ROUTE, EDITOR_STATUS_ROUTE, exportLocation } from '../contract/routes'
import { note, routeEvent } from '../observability'
import { idSpaceStatus } from '../ids'
import { requirePublishToken } from './editor-auth'
import { publish } from './publish'
import { isJsonContentType, readBodyWithin } from './request-body'

/** The editor API, mounted at `EDITOR_API_PATH`. */
export const editorApi = new Hono<{ Bindings: Env }>()

editorApi.use(EDITOR_EXPORTS_ROUTE, routeEvent('publish'), requirePublishToken())

editorApi.post(EDITOR_EXPORTS_ROUTE, async (c) => {
  const contentType = c.req.header('Content-Type') ?? null
  if (!isJsonContentType(contentType)) {
    throw new ServiceFailure({ reason: 'unsupported_media_type', contentType })
  }
  const document = await readBodyWithin(c.req.raw, MAX_EXPORT_BYTES)
  note(c, { exportBytes: document.byteLength })
  const quickCommandPrefix = new URL(c.req.url).searchParams.get('quickCommandPrefix')
  const result = await publish(c.env, document, { quickCommandPrefix })
  note(c, { id: result.id })
  return c.json(result, 201, {
    Location: exportLocation(result.id),
    'Cache-Control': 'no-store',
  })
})

editorApi.all(EDITOR_EXPORTS_ROUTE, (c) => {
  throw new ServiceFailure({
    reason: 'method_not_allowed',
    method: c.req.method,
    allow: EDITOR_EXPORTS_METHODS,
  })
})

editorApi.use(EDITOR_STATUS_ROUTE, routeEvent('status'), requirePublishToken())

editorApi.get(EDITOR_STATUS_ROUTE, async (c) =>
  c.json(await idSpaceStatus(c.env), 200, { 'Cache-Control': 'no-store' }),
)

editorApi.all(EDITOR_STATUS_ROUTE, (c) => {
  throw new ServiceFailure({
    reason: 'method_not_allowed',
    method: c.req.method,
    allow: EDITOR_STATUS_METHODS,
  })
})
