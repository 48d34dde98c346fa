import type { Context } from 'hono'
import { OPENAPI_DOCUMENT } from './document'

export { OPENAPI_DOCUMENT }

// Serialized once per isolate: the document depends on nothing but the code.
const BODY = JSON.stringify(OPENAPI_DOCUMENT)

/** GET /openapi.json: the OpenAPI document, readable from any origin. */
export function serveOpenApi(c: Context): Response {
  return c.body(BODY, 200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  })
}
