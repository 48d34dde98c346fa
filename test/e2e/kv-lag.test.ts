/**
 * `npm start -- --var SIMULATED_KV_LAG_SECONDS:S`: the service acts as a location that KV
 * reaches only S seconds after a publish. A read at once is served from the allocator's grace
 * copy, byte-exact and with the headers a KV read gives once the lag has passed. The grace is
 * shortened below the lag, so the moment between them, with neither, shows the lag is real.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureExport, publishExport } from './editor-publish'
import { startLocalService, type LocalService } from './local-service'
import { BODY_HEADERS } from '../support/body-headers'
import { largeExport, PLACEHOLDER } from '../support/large-export'

/**
 * Long enough that a busy machine still reads each publish within its grace, and asks between
 * the grace and the lag before the lag is over: the test waits out the lag once.
 */
const LAG_SECONDS = 16
const GRACE_SECONDS = 8
const FIXTURE_NAMES = ['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays']
/** Headers a read from the copy and a read from KV share (the rate limit's moving values aside). */
const SAME_HEADERS = [
  ...BODY_HEADERS,
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-ratelimit-limit',
  'ratelimit-policy',
]

let service: LocalService
beforeAll(async () => {
  service = await startLocalService({
    SIMULATED_KV_LAG_SECONDS: String(LAG_SECONDS),
    PUBLISH_GRACE_SECONDS: String(GRACE_SECONDS),
  })
})
afterAll(() => service?.stop())

interface Read {
  status: number
  headers: Record<string, string | null>
  expiresIn: number
  body: Buffer
}

/** A read, uncompressed (so Content-Length is the body's) unless `encoding` asks otherwise. */
async function read(id: string, tag: string, method = 'GET', encoding = 'identity'): Promise<Read> {
  // fetch decompresses a gzip body: `body` is the document either way.
  const res = await fetch(`${service.url}/server-api?id=${id}&tag=${tag}`, {
    method,
    headers: { 'Accept-Encoding': encoding },
  })
  return {
    status: res.status,
    headers: Object.fromEntries(SAME_HEADERS.map((name) => [name, res.headers.get(name)])),
    expiresIn: Number(res.headers.get('x-export-expires-in')),
    body: Buffer.from(await res.arrayBuffer()),
  }
}

function sleepUntil(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())))
}

describe('npm start with SIMULATED_KV_LAG_SECONDS', () => {
  it('serves a publish at once from the grace copy, then from KV, with the same bytes and headers', async () => {
    const documents = [...FIXTURE_NAMES.map(fixtureExport), largeExport('large')]
    expect(Buffer.byteLength(documents[3]!)).toBeGreaterThan(1024 * 1024)
    const ids: string[] = []
    const publishedAt: number[] = []
    const atOnce: Read[] = []
    const gzipAtOnce: Read[] = []
    for (const document of documents) {
      publishedAt.push(Date.now())
      const { id } = await publishExport(service, document)
      ids.push(id)
      const get = await read(id, 'bde')
      const head = await read(id, 'bde', 'HEAD')
      expect(get.status).toBe(200)
      expect(get.body.equals(Buffer.from(document.replaceAll(PLACEHOLDER, 'bde')))).toBe(true)
      expect(get.headers['content-length']).toBe(String(get.body.length))
      expect(head.status).toBe(200)
      expect(head.headers).toEqual(get.headers)
      const gzip = await read(id, 'bde', 'GET', 'gzip')
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(gzip.body.equals(get.body)).toBe(true)
      atOnce.push(get)
      gzipAtOnce.push(gzip)
    }

    // Between the grace and the lag, neither store has the export here: the lag is real.
    await sleepUntil(publishedAt.at(-1)! + (GRACE_SECONDS + 0.5) * 1000)
    const between = await fetch(`${service.url}/server-api?id=${ids.at(-1)}`)
    expect(between.status).toBe(503)
    expect(((await between.json()) as { code: string }).code).toBe('not_ready')

    await sleepUntil(publishedAt.at(-1)! + (LAG_SECONDS + 1) * 1000)
    for (const [i, id] of ids.entries()) {
      const later = await read(id, 'bde')
      expect(later.status).toBe(200)
      expect(later.body.equals(atOnce[i]!.body)).toBe(true)
      expect(later.headers).toEqual(atOnce[i]!.headers)
      expect(later.expiresIn).toBeLessThan(atOnce[i]!.expiresIn)
      const gzip = await read(id, 'bde', 'GET', 'gzip')
      expect(gzip.headers).toEqual(gzipAtOnce[i]!.headers)
      expect(gzip.body.equals(later.body)).toBe(true)
    }
  })
})
