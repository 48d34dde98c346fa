/**
 * Before the request section times anything: the exports it reads, published once and checked
 * (the service substitutes the tag, the baseline gives the stored bytes), and the clients its
 * cases meet, primed.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SERVER_API_PATH } from '../../../src/contract/routes.ts'
import { expectOk, publishOnce } from '../lib/service-calls.mjs'
import { knownAddress, refusedAddress } from './addresses.mjs'

/** The fixture and a streamed export, published; every Worker's GET checked against the bytes. */
export async function publishAndCheck({ urls, cases, fixtures, config, token }) {
  const fixture = readFileSync(join(fixtures, 'animated-80-displays.json'))
  const id = (await publishOnce(urls.service, fixture, token)).id
  // An export above the read-whole threshold (src/exports/serve.ts), so the streamed path runs.
  const large = cases.syntheticExport('sparse', config.streamedBytes)
  const largeId = (await publishOnce(urls.service, large, token)).id
  const substituted = Buffer.from(cases.viaReplaceAll(fixture, 'bde'))
  for (const [name, expected] of [
    ['service', substituted],
    ['no-limiter', substituted],
    ['no-storage', substituted],
    ['baseline', fixture],
  ]) {
    const response = await expectOk(fetch(`${urls[name]}${SERVER_API_PATH}?id=${id}&tag=bde`))
    const got = Buffer.from(await response.arrayBuffer())
    if (!got.equals(expected)) {
      throw new Error(
        `GET on ${name} gave ${got.length} bytes, not the expected ${expected.length}`,
      )
    }
  }
  return { fixture, id, large, largeId }
}

/**
 * The 16 refused addresses use up their one request on the limited service. A Durable Object
 * per address: the first request from one creates it (and its SQLite database), later ones find
 * it. The timed cases measure known addresses, so every one gets a request first; `HEAD new
 * client` measures the other case, a never-seen address every time.
 */
export async function primeClients({ urls, runLoad, config, id, get }) {
  for (let i = 0; i < 16; i++) {
    await fetch(`${urls.limited}${SERVER_API_PATH}?id=${id}`, {
      headers: { 'CF-Connecting-IP': refusedAddress(i) },
    }).then((r) => r.arrayBuffer())
  }
  for (const url of [urls.service, urls['no-storage']]) {
    await runLoad({
      url,
      method: 'HEAD',
      connections: config.connections,
      amount: config.clientIps,
      request: (i) => get(i),
    })
  }
}

/** The GET every case is made of: the export `id`, the i-th tag, the i-th known address. */
export function getRequest({ id, tags, clientIps }) {
  return (i) => ({
    path: `${SERVER_API_PATH}?id=${id}&tag=${tags[i % tags.length]}`,
    headers: { 'CF-Connecting-IP': knownAddress(i, clientIps) },
  })
}
