/**
 * Our answers read the way Minecraft plugins written against the editor's original service read
 * them, against `npm start`. Those plugins send no tag, look only at parts tagged `bde_<n>`, may
 * ask for `/server-api/` with its slash, ignore the status and map the body onto a class whose
 * `error` is a `String` (Gson refuses an object there), or call `getAsString()` on `error` for a
 * 400. The readers below do the same in TypeScript; a body of another shape makes them throw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureExport, publishExport } from './editor-publish'
import { startLocalService, type LocalService } from './local-service'

/** What the first plugin tells its user whenever the body carries an `error`. */
const NEVER_GENERATED = 'Import ID was never generated or has expired'
const LIFETIME_SECONDS = 2
const SHORT_LIMIT = 3

/** The body mapped the way Gson maps onto `{ String error; JsonObject content; }`: types checked. */
function readStrictly(text: string): { error: string | null; content: object | null } {
  const body: unknown = JSON.parse(text)
  if (typeof body !== 'object' || body === null) throw new Error('not a JSON object')
  const { error, content } = body as Record<string, unknown>
  if (error !== undefined && error !== null && typeof error !== 'string') {
    throw new Error('Expected a string but was BEGIN_OBJECT at path $.error')
  }
  if (content !== undefined && content !== null && typeof content !== 'object') {
    throw new Error('Expected BEGIN_OBJECT at path $.content')
  }
  return { error: error ?? null, content: (content as object | null | undefined) ?? null }
}

let ipCounter = 0
/** A GET from a client address of its own, so no test spends another's quota. */
function get(url: string, ip = `203.0.113.${++ipCounter}`): Promise<Response> {
  return fetch(url, { headers: { 'CF-Connecting-IP': ip }, redirect: 'manual' })
}

/** The first plugin: ignores the status, reads `error` as a string, else summons `content`. */
async function firstPlugin(url: string): Promise<string> {
  const { error, content } = readStrictly(await (await get(url)).text())
  if (error !== null) return NEVER_GENERATED
  return content === null ? 'summoned {Passengers:[null]}' : 'summoned the model'
}

/** The second plugin: on a 400, `error` read as a primitive string. */
async function secondPluginOn400(url: string): Promise<string> {
  const res = await get(url)
  expect(res.status).toBe(400)
  const error = (JSON.parse(await res.text()) as Record<string, unknown>).error
  if (typeof error !== 'string') throw new Error('UnsupportedOperationException: JsonObject')
  return error
}

let service: LocalService
let expiredId: string
beforeAll(async () => {
  service = await startLocalService({
    DEFAULT_TAG: 'bde',
    EXPORT_TTL_SECONDS: String(LIFETIME_SECONDS),
    PUBLISH_GRACE_SECONDS: '0',
    RATE_LIMIT_SHORT: `${SHORT_LIMIT}/60`,
  })
  expiredId = (await publishExport(service, '{"content":{"passengers":[]}}')).id
  await new Promise((resolve) => setTimeout(resolve, (LIFETIME_SECONDS + 0.5) * 1000))
})
afterAll(() => service?.stop())

describe('a plugin that maps error onto a String and ignores the status', () => {
  it.each([
    [400, '/server-api?id=12'],
    [404, '/server-api?id=999999'],
    [410, '/server-api?id=EXPIRED'],
  ])('tells its user the ID is unknown on %i', async (status, path) => {
    const url = service.url + path.replace('EXPIRED', expiredId)
    expect((await get(url)).status).toBe(status)
    expect(await firstPlugin(url)).toBe(NEVER_GENERATED)
  })

  it('would have thrown on the error object: the reader is as strict as Gson', () => {
    expect(() => readStrictly('{"error":{"code":"not_found","message":"x"}}')).toThrow(/string/)
  })
})

describe('a plugin that calls getAsString() on error for a 400', () => {
  it('gets the message', async () => {
    expect(await secondPluginOn400(`${service.url}/server-api?id=12`)).toMatch(/six ASCII digits/)
  })
})

describe('a 429', () => {
  it('keeps error.retryAfterSeconds, equal to Retry-After', async () => {
    const url = `${service.url}/server-api?id=999999`
    for (let i = 0; i < SHORT_LIMIT; i++) await (await get(url, '198.51.100.7')).arrayBuffer()
    const res = await get(url, '198.51.100.7')
    expect(res.status).toBe(429)
    const body = (await res.json()) as { error: { code: string; retryAfterSeconds: number } }
    expect(body.error.code).toBe('rate_limited')
    expect(body.error.retryAfterSeconds).toBe(Number(res.headers.get('Retry-After')))
  })
})

describe('DEFAULT_TAG=bde', () => {
  it('serves bde_0... to a request without a tag, through /server-api and /server-api/', async () => {
    const document = fixtureExport('reading-41-displays')
    const { id } = await publishExport(service, document)
    const expected = document.replaceAll('[MODELSERVERTAG]', 'bde')
    for (const path of ['/server-api', '/server-api/']) {
      const res = await get(`${service.url}${path}?id=${id}`)
      expect(res.status).toBe(200)
      const text = await res.text()
      expect(text).toBe(expected)
      expect(text).toContain('\\"bde_0\\"')
      expect(await firstPlugin(`${service.url}${path}?id=${id}`)).toBe('summoned the model')
    }
    // A tag of the caller's own still wins.
    expect(await (await get(`${service.url}/server-api?id=${id}&tag=gate`)).text()).toBe(
      document.replaceAll('[MODELSERVERTAG]', 'gate'),
    )
  })

  it('stops the service at startup when it is not a tag, and says why', async () => {
    await expect(startLocalService({ DEFAULT_TAG: 'bad tag!' })).rejects.toThrow(
      'DEFAULT_TAG must be a tag: 1 to 100 ASCII letters, digits, "_" or "-" (for example "model" or "bde"); got "bad tag!".',
    )
  })
})
