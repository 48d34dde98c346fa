/** The HTTP calls the bench sections make outside a load run, failing loudly on a wrong status. */
import { EDITOR_EXPORTS_PATH } from '../../../src/contract/routes.ts'

/** Publishes `body` through the editor API with `token`; the 201's JSON. */
export async function publishOnce(base, body, token) {
  const response = await fetch(`${base}${EDITOR_EXPORTS_PATH}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body,
  })
  if (response.status !== 201)
    throw new Error(`publish: ${response.status} ${await response.text()}`)
  return response.json()
}

export async function getJson(url) {
  return (await expectOk(fetch(url))).json()
}

export async function expectOk(pending) {
  const response = await pending
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`)
  return response
}
