/**
 * One publish through the editor API, for the command-line publisher (scripts/publish.mjs) and
 * the examples `npm start` publishes (scripts/start.mjs). It also knows where the local service
 * is: `npm start` writes its address to LOCAL_ADDRESS_FILE once it answers, and removes it when
 * it stops, so `npm run publish` finds it on whatever port it chose.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { EDITOR_EXPORTS_PATH, SERVER_API_PATH } from '../src/contract/routes.ts'
import { RETRY_AFTER_HEADER } from '../src/contract/wire.ts'

/** Where `npm start` writes the address it serves on (`.wrangler/` is wrangler's, ignored by git). */
export const LOCAL_ADDRESS_FILE = fileURLToPath(
  new URL('../.wrangler/local-address', import.meta.url),
)
/** The address of `npm start` without `--port`, and of a service started before the file existed. */
export const DEFAULT_LOCAL_URL = 'http://127.0.0.1:8787'

/** The running `npm start`'s address, else the default one. */
export function localServiceUrl() {
  try {
    const written = readFileSync(LOCAL_ADDRESS_FILE, 'utf8').trim()
    if (/^https?:\/\/\S+$/.test(written)) return written
  } catch {
    // No `npm start` running from this folder: the default address.
  }
  return DEFAULT_LOCAL_URL
}

/** PUBLISH_TOKEN from the project's .dev.vars (KEY=value lines, optional quotes), if any. */
export function tokenFromDevVars() {
  let text
  try {
    text = readFileSync(new URL('../.dev.vars', import.meta.url), 'utf8')
  } catch {
    return undefined
  }
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*PUBLISH_TOKEN\s*=\s*(.*?)\s*$/.exec(line)
    if (match) return match[1].replace(/^(["'])(.*)\1$/, '$2')
  }
  return undefined
}

/** The address that fetches export `id` with `tag` from `base`. */
export function retrievalUrl(base, id, tag) {
  return `${base}${SERVER_API_PATH}?id=${id}&tag=${tag}`
}

/**
 * Publishes `document` (bytes) to `base`; resolves with the editor API's `201` body, or rejects
 * with the service's refusal in words (`Publishing failed: HTTP 400 invalid_json: ...`).
 */
export async function publishDocument({ base, token, document, quickCommandPrefix }) {
  const endpoint = new URL(`${base}${EDITOR_EXPORTS_PATH}`)
  if (quickCommandPrefix !== undefined) {
    endpoint.searchParams.set('quickCommandPrefix', quickCommandPrefix)
  }
  let response
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: document,
    })
  } catch (error) {
    const reason = error.cause?.code ?? error.message
    throw new Error(`Cannot reach ${base} (${reason}). Is the service running (\`npm start\`)?`)
  }
  const text = await response.text()
  if (response.status !== 201) throw new Error(describeRefusal(response, text))
  return JSON.parse(text)
}

/** The service's code and message: `{"error": message, "code"}`, or the 429's `{"error": {...}}`. */
function describeRefusal(response, text) {
  let body
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const error = body?.error
  const [code, message] =
    typeof error === 'string' ? [body.code, error] : [error?.code, error?.message]
  if (typeof message !== 'string') {
    return `Publishing failed: HTTP ${response.status} ${text.slice(0, 200)}`
  }
  const retry = response.headers.get(RETRY_AFTER_HEADER)
  const hint = retry ? ` Retry after ${retry} s.` : ''
  return `Publishing failed: HTTP ${response.status} ${code}: ${message}${hint}`
}
