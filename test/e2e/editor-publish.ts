import { readFileSync } from 'node:fs'
import { E2E_PUBLISH_TOKEN, type LocalService } from './local-service'

/** What the editor API answers on 201. */
export interface Published {
  id: string
  expiresAt: string
  expiresInSeconds: number
  quickCommand: string
}

/** A real export of fixtures/, in its published form. */
export function fixtureExport(name: string): string {
  return readFileSync(new URL(`../../fixtures/${name}.json`, import.meta.url), 'utf8')
}

/** Publishes a document through the editor API of a running service. */
export async function publishExport(
  service: Pick<LocalService, 'url'>,
  document: string,
): Promise<Published> {
  const res = await fetch(`${service.url}/editor-api/exports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${E2E_PUBLISH_TOKEN}`, 'Content-Type': 'application/json' },
    body: document,
  })
  if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as Published
}
