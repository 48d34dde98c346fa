import { callWithEnv } from './helpers'

/** The token vitest.config.ts configures. */
export const TOKEN = 'test-publish-token'

/** A small export with a placeholder in a tag array and in a command. */
export const SMALL_EXPORT =
  '{"content":{"meta":{"Tags":["[MODELSERVERTAG]_root"],"cmd":"kill @e[tag=[MODELSERVERTAG]_0]"},"project_id":"p-1"}}'

/** What a successful publish answers. */
export interface Published {
  id: string
  expiresAt: string
  expiresInSeconds: number
  quickCommand: string
}

/** A publish request as the editor's backend sends it. */
export function publishInit(
  body: BodyInit | null,
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
    body,
  }
}

/** POST /editor-api/exports with the given vars, through the real Worker. */
export function publishWith(
  vars: Partial<Cloudflare.Env>,
  body: BodyInit | null = SMALL_EXPORT,
  options: { headers?: Record<string, string>; query?: string } = {},
): Promise<Response> {
  const path = '/editor-api/exports' + (options.query ? `?${options.query}` : '')
  return callWithEnv(vars, path, publishInit(body, options.headers))
}

/** Publishes and returns the 201 body; fails the test on any other status. */
export async function published(
  vars: Partial<Cloudflare.Env> = {},
  body: BodyInit = SMALL_EXPORT,
): Promise<Published> {
  const res = await publishWith(vars, body)
  if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${await res.text()}`)
  return res.json<Published>()
}

/** What an error response says, in either of its forms. */
export interface ErrorFields {
  code: string
  message: string
  retryAfterSeconds?: number
  [field: string]: unknown
}

/**
 * The fields of a JSON error response, after checking its form: a 429 carries the object
 * `{"error": {code, message, retryAfterSeconds}}`, every other error `{"error": "<message>",
 * "code": ..., ...}` with its fields at the top level.
 */
export async function errorOf(res: Response): Promise<ErrorFields> {
  const body = await res.json<Record<string, unknown>>()
  const { error, ...rest } = body
  if (res.status === 429) {
    if (typeof error !== 'object' || error === null) {
      throw new Error(`a 429 body must carry an error object: ${JSON.stringify(body)}`)
    }
    return error as ErrorFields
  }
  if (typeof error !== 'string' || typeof rest.code !== 'string') {
    throw new Error(
      `a ${res.status} body must carry a string error and a code: ${JSON.stringify(body)}`,
    )
  }
  return { ...rest, code: rest.code, message: error }
}
