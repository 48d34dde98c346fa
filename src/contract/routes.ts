/**
 * The service's paths, written once: the routes mount them, the request log names its events by
 * them, and the client and the OpenAPI document build their URLs from them.
 */

/** The public read endpoint (docs/api.md#get-server-api): `GET /server-api?id=NNNNNN&tag=TAG`. */
export const SERVER_API_PATH = '/server-api'
/** The editor API, behind the publish token; its routes below are relative to it. */
export const EDITOR_API_PATH = '/editor-api'
/** Publishing, under the editor API. */
export const EDITOR_EXPORTS_ROUTE = '/exports'
/** How full the ID space is, under the editor API. */
export const EDITOR_STATUS_ROUTE = '/status'
/** `POST /editor-api/exports`. */
export const EDITOR_EXPORTS_PATH = EDITOR_API_PATH + EDITOR_EXPORTS_ROUTE
/** `GET /editor-api/status`. */
export const EDITOR_STATUS_PATH = EDITOR_API_PATH + EDITOR_STATUS_ROUTE
/** The OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json'
/** The try-it page, served from the static assets. */
export const PAGE_PATH = '/'

/** The path and query of the export published as `id`: a publish's `Location`. */
export function exportLocation(id: string): string {
  return `${SERVER_API_PATH}?id=${id}`
}
