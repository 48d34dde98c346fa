/**
 * The public read route, `GET`/`HEAD /server-api?id=NNNNNN&tag=TAG`, as one sub-app: the request
 * log's facts, CORS, the rate limiter when given, the route and its 405. The app mounts it
 * (src/app.ts), with the limiter or, for the bench, without. CORS comes before the limiter, so
 * preflights cost no quota and every later answer, 429s and errors included, carries CORS.
 */
import { Hono, type MiddlewareHandler } from 'hono'
import type { Env } from '../config'
import { isPublicationId } from '../contract/publication-id'
import { PUBLIC_METHODS } from '../contract/wire'
import { publicCors, ServiceFailure } from '../http'
import { note, notesOf } from '../observability'
import { serveExport } from './serve'

/** Options of `serverApi`. */
export interface ServerApiOptions {
  /** Counts GET and HEAD against the client's quota (src/rate-limit/); none when absent. */
  rateLimit?: MiddlewareHandler<{ Bindings: Env }>
}

/** The read route, to be mounted at `SERVER_API_PATH`. */
export function serverApi(options: ServerApiOptions = {}): Hono<{ Bindings: Env }> {
  const api = new Hono<{ Bindings: Env }>()
  api.use('/', noteRetrieval, publicCors())
  if (options.rateLimit !== undefined) api.use('/', options.rateLimit)
  api.get('/', serveExport)
  api.all('/', (c) => {
    throw new ServiceFailure({
      reason: 'method_not_allowed',
      method: c.req.method,
      allow: PUBLIC_METHODS,
    })
  })
  return api
}

/**
 * Notes the event, and afterwards the well-formed ID of a request the route did not serve (a
 * 429, a 404): the route notes the ID it served, so the URL is read again only for the others.
 */
const noteRetrieval: MiddlewareHandler = async (c, next) => {
  note(c, { event: 'retrieve' })
  await next()
  if (notesOf(c).id !== undefined) return
  const id = new URL(c.req.url).searchParams.get('id')
  if (isPublicationId(id)) note(c, { id })
}
