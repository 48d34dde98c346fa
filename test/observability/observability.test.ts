import { createExecutionContext, reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { exportKey } from '../support/storage-layout'
import { METRIC_BLOBS, METRIC_DOUBLES } from '../../src/observability'
import { PublishService } from '../../src/index'
import { allocatorWith, callWithEnv, storeExport } from '../support/helpers'
import { captureLog, recordingDataset, type LogLine } from '../support/observed'
import { published, publishInit, SMALL_EXPORT } from '../support/publishing'

const ID = '241235'
const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root"],"project_id":"p-1"}}'
/** A tag and an address that must never reach a log line or a data point. */
const TAG = 'secret_tag_42'
const IP = '203.0.113.77'
const RAY = '8f0a1b2c3d4e5f60-AMS'

let ipCounter = 0
/** A client address of its own, so no request spends another's quota. */
function nextIp(): string {
  return `198.51.100.${++ipCounter}`
}

interface Observed {
  response: Response
  body: string
  lines: LogLine[]
  points: AnalyticsEngineDataPoint[]
}

/** Sends a request through the Worker with a recording dataset, from Amsterdam with a ray. */
async function observe(
  path: string,
  init: RequestInit = {},
  vars: Partial<Cloudflare.Env> = {},
): Promise<Observed> {
  const log = captureLog()
  const { dataset, points } = recordingDataset()
  const headers = new Headers(init.headers)
  if (!headers.has('CF-Connecting-IP')) headers.set('CF-Connecting-IP', nextIp())
  headers.set('CF-Ray', RAY)
  const response = await callWithEnv({ METRICS: dataset, ...vars }, path, {
    ...init,
    headers,
    cf: { colo: 'AMS' },
  } as RequestInit)
  const body = await response.text()
  vi.restoreAllMocks()
  return { response, body, lines: log.lines(), points }
}

/** The single request line of an observation (incidents aside), checked to be the only one. */
function requestLine(observed: Observed): LogLine {
  const lines = observed.lines.filter((line) => line.event !== 'incident')
  expect(lines).toHaveLength(1)
  return lines[0]!
}

/** A data point by column name, decoded with the documented column order. */
function columns(point: AnalyticsEngineDataPoint): Record<string, unknown> {
  return {
    index: point.indexes?.[0],
    ...Object.fromEntries(METRIC_BLOBS.map(([name], i) => [name, point.blobs?.[i]])),
    ...Object.fromEntries(METRIC_DOUBLES.map(([name], i) => [name, point.doubles?.[i]])),
  }
}

function onlyPoint(observed: Observed): Record<string, unknown> {
  expect(observed.points).toHaveLength(1)
  return columns(observed.points[0]!)
}

/** What `bytes` counts: the Content-Length the response declares, 0 when it declares none. */
function declaredLength(observed: Observed): number {
  return Number(observed.response.headers.get('Content-Length') ?? 0)
}

function expectPrivate(observed: Observed): void {
  const everything = JSON.stringify([observed.lines, observed.points])
  expect(everything).not.toContain(TAG)
  expect(everything).not.toContain(IP)
}

afterEach(async () => {
  vi.restoreAllMocks()
  await reset()
})

describe('one log line and one data point per public request', () => {
  it('200: served, with the ID, sizes, location and ray; never the tag or the address', async () => {
    await storeExport(ID, DOC)
    const observed = await observe(`/server-api?id=${ID}&tag=${TAG}`, {
      headers: { 'CF-Connecting-IP': IP },
    })
    expect(observed.response.status).toBe(200)
    const length = Number(observed.response.headers.get('Content-Length'))
    const line = requestLine(observed)
    expect(line).toEqual({
      level: 'log',
      event: 'retrieve',
      method: 'GET',
      status: 200,
      outcome: 'served',
      id: ID,
      ms: expect.any(Number),
      bytes: length,
      colo: 'AMS',
      ray: RAY,
      limiter: 'admitted',
      exportBytes: DOC.length,
      tagLength: TAG.length,
    })
    expect(observed.points).toEqual([
      {
        indexes: ['served'],
        blobs: ['retrieve', 'served', '2xx', '', 'AMS', 'admitted', 'GET', '', '', ''],
        doubles: [line.ms, length, DOC.length, TAG.length, 200],
      },
    ])
    expectPrivate(observed)
  })

  it('400: invalid_id, without an ID', async () => {
    const observed = await observe(`/server-api?id=12&tag=${TAG}`)
    expect(requestLine(observed)).toMatchObject({
      status: 400,
      outcome: 'invalid_id',
      bytes: declaredLength(observed),
      limiter: 'admitted',
    })
    expect(requestLine(observed)).not.toHaveProperty('id')
    expect(onlyPoint(observed)).toMatchObject({
      route: 'retrieve',
      outcome: 'invalid_id',
      status_class: '4xx',
      status: 400,
    })
    expectPrivate(observed)
  })

  it('404: unknown_id, with the ID asked for', async () => {
    const observed = await observe('/server-api?id=999999')
    expect(requestLine(observed)).toMatchObject({
      status: 404,
      outcome: 'unknown_id',
      id: '999999',
    })
    expect(onlyPoint(observed)).toMatchObject({ index: 'unknown_id', outcome: 'unknown_id' })
  })

  it('410: expired', async () => {
    await storeExport(ID, DOC, { publishedAt: Date.now() - 601_000 })
    const observed = await observe(`/server-api?id=${ID}`)
    expect(requestLine(observed)).toMatchObject({ status: 410, outcome: 'expired', id: ID })
    expect(onlyPoint(observed)).toMatchObject({ outcome: 'expired', status_class: '4xx' })
  })

  it('429: rate_limited, naming the window that refused', async () => {
    const ip = nextIp()
    const vars = { RATE_LIMIT_SHORT: '5/60', RATE_LIMIT_LONG: '1/3600' }
    await observe('/server-api?id=999999', { headers: { 'CF-Connecting-IP': ip } }, vars)
    const observed = await observe(
      '/server-api?id=999999',
      { headers: { 'CF-Connecting-IP': ip } },
      vars,
    )
    expect(observed.response.status).toBe(429)
    expect(requestLine(observed)).toMatchObject({
      status: 429,
      outcome: 'rate_limited',
      id: '999999',
      limiter: 'refused',
      window: 'long',
    })
    expect(observed.points[0]!.blobs).toEqual([
      'retrieve',
      'rate_limited',
      '4xx',
      'long',
      'AMS',
      'refused',
      'GET',
      '',
      '',
      '',
    ])
  })

  it('503 unavailable: storage_failed, logged as an error with its cause', async () => {
    const brokenKv = {
      getWithMetadata: () => Promise.reject(new Error('KV is down')),
    } as unknown as KVNamespace
    const observed = await observe(`/server-api?id=${ID}`, {}, { EXPORTS: brokenKv })
    expect(observed.response.status).toBe(503)
    expect(requestLine(observed)).toMatchObject({
      level: 'error',
      status: 503,
      outcome: 'storage_failed',
      id: ID,
      cause: { name: 'Error', message: 'KV is down', stack: expect.any(String) },
    })
    expect(requestLine(observed)).not.toHaveProperty('unsettled')
    expect(onlyPoint(observed)).toMatchObject({ outcome: 'storage_failed', status_class: '5xx' })
  })

  it('503 unavailable for an ID KV does not hold and whose shard fails: unsettled', async () => {
    const shardDown = allocatorWith({ lookup: () => Promise.reject(new Error('DO unreachable')) })
    const observed = await observe(`/server-api?id=${ID}`, {}, { ID_ALLOCATOR: shardDown })
    const line = requestLine(observed)
    expect([observed.response.status, line.outcome, line.unsettled]).toEqual([
      503,
      'storage_failed',
      true,
    ])
    expect(line.cause).toMatchObject({ message: 'DO unreachable' })
  })

  it('503 not_ready: not_yet_visible', async () => {
    // Without a grace copy, so the allocator knows the ID is live but nothing can serve it.
    const { id } = await published({ PUBLISH_GRACE_SECONDS: '0' })
    await env.EXPORTS.delete(exportKey(id))
    const observed = await observe(`/server-api?id=${id}`)
    expect(requestLine(observed)).toMatchObject({ status: 503, outcome: 'not_yet_visible', id })
    expect(onlyPoint(observed)).toMatchObject({ outcome: 'not_yet_visible' })
  })

  it('a limiter that fails closed: an incident line with its cause, and a 503', async () => {
    const failing = {
      getByName: () => ({ hit: () => Promise.reject(new Error('overloaded')) }),
    } as unknown as Cloudflare.Env['RATE_LIMITER']
    const observed = await observe('/server-api?id=999999', {}, { RATE_LIMITER: failing })
    expect(observed.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        event: 'incident',
        incident: 'limiter_failed_closed',
        cause: expect.objectContaining({ message: 'overloaded' }),
      }),
      expect.objectContaining({
        event: 'retrieve',
        status: 503,
        outcome: 'limiter_unavailable',
        limiter: 'failed_closed',
      }),
    ])
    expect(onlyPoint(observed)).toMatchObject({
      limiter: 'failed_closed',
      outcome: 'limiter_unavailable',
    })
  })

  it('HEAD counts no body bytes; OPTIONS is a preflight the limiter never saw', async () => {
    await storeExport(ID, DOC)
    const head = await observe(`/server-api?id=${ID}`, { method: 'HEAD' })
    expect(requestLine(head)).toMatchObject({ method: 'HEAD', outcome: 'served', bytes: 0 })
    const preflight = await observe('/server-api', {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect(requestLine(preflight)).toMatchObject({ status: 204, outcome: 'preflight' })
    expect(requestLine(preflight)).not.toHaveProperty('limiter')
  })

  it('a bug: internal, logged as an error with its cause', async () => {
    const observed = await observe('/server-api?id=999999', {}, { RATE_LIMIT_SHORT: 'plenty' })
    expect(requestLine(observed)).toMatchObject({
      level: 'error',
      status: 500,
      outcome: 'internal',
      cause: { message: expect.stringContaining('The short rate limit must look like') },
    })
  })

  it('an unknown path: event other, route_not_found', async () => {
    const observed = await observe('/nothing-here')
    expect(requestLine(observed)).toMatchObject({
      event: 'other',
      status: 404,
      outcome: 'route_not_found',
    })
  })
})

describe('one log line and one data point per publish', () => {
  it('over HTTP: published, with the new ID and the document size', async () => {
    const observed = await observe('/editor-api/exports', publishInit(SMALL_EXPORT))
    expect(observed.response.status).toBe(201)
    const { id } = JSON.parse(observed.body) as { id: string }
    expect(requestLine(observed)).toMatchObject({
      event: 'publish',
      method: 'POST',
      status: 201,
      outcome: 'published',
      id,
      exportBytes: SMALL_EXPORT.length,
      bytes: declaredLength(observed),
    })
    expect(onlyPoint(observed)).toMatchObject({
      route: 'publish',
      outcome: 'published',
      status_class: '2xx',
      export_bytes: SMALL_EXPORT.length,
      method: 'POST',
    })
  })

  it('over HTTP, refused: the reason as outcome', async () => {
    const observed = await observe('/editor-api/exports', publishInit('{"content":'))
    expect(requestLine(observed)).toMatchObject({
      event: 'publish',
      status: 400,
      outcome: 'invalid_json',
    })
  })

  it('over RPC: method RPC, and the status the editor API would have answered', async () => {
    const log = captureLog()
    const { dataset, points } = recordingDataset()
    const service = new PublishService(createExecutionContext(), { ...env, METRICS: dataset })
    const result = await service.publish(SMALL_EXPORT)
    await service.publish('{"content":[]}').catch(() => {})
    expect(log.lines()).toEqual([
      expect.objectContaining({
        event: 'publish',
        method: 'RPC',
        status: 201,
        outcome: 'published',
        id: result.id,
        exportBytes: SMALL_EXPORT.length,
        bytes: 0,
      }),
      expect.objectContaining({ method: 'RPC', status: 400, outcome: 'invalid_export' }),
    ])
    expect(points.map((p) => columns(p).outcome)).toEqual(['published', 'invalid_export'])
  })

  it('refused as unsafe: the rule it broke, over HTTP and RPC, and none of the export', async () => {
    const unsafe = '{"content":{"datapack":{"anim_keyframes":{"a":{"0":["op Secret_Name"]}}}}}'
    const observed = await observe('/editor-api/exports', publishInit(unsafe))
    expect(observed.response.status).toBe(400)
    expect(requestLine(observed)).toMatchObject({
      event: 'publish',
      status: 400,
      outcome: 'unsafe_export',
      unsafe: 'command',
    })
    expect(onlyPoint(observed)).toMatchObject({
      outcome: 'unsafe_export',
      unsafe_rule: 'command',
    })

    const log = captureLog()
    const { dataset, points } = recordingDataset()
    const service = new PublishService(createExecutionContext(), { ...env, METRICS: dataset })
    const entity =
      '{"content":{"passengers":["{id:\\"minecraft:tnt\\",Tags:[\\"Secret_Name\\"]}"]}}'
    await service.publish(entity).catch(() => {})
    expect(log.lines()).toEqual([
      expect.objectContaining({ method: 'RPC', outcome: 'unsafe_export', unsafe: 'entity' }),
    ])
    expect(points.map((p) => columns(p).unsafe_rule)).toEqual(['entity'])
    const logged = JSON.stringify([observed.lines, observed.points, log.lines(), points])
    expect(logged).not.toContain('Secret_Name')
  })
})

describe('the log and the metrics never cost a request', () => {
  it('without the dataset binding, everything answers the same', async () => {
    await storeExport(ID, DOC)
    const log = captureLog()
    const res = await callWithEnv({ METRICS: undefined }, `/server-api?id=${ID}`)
    expect(res.status).toBe(200)
    expect(log.lines()).toEqual([expect.objectContaining({ outcome: 'served' })])
  })

  it('a dataset that throws is an incident, and the request is still served', async () => {
    await storeExport(ID, DOC)
    const broken = {
      writeDataPoint: () => {
        throw new Error('too many blobs')
      },
    }
    const observed = await observe(`/server-api?id=${ID}`, {}, { METRICS: broken })
    expect(observed.response.status).toBe(200)
    expect(observed.lines).toEqual([
      expect.objectContaining({ outcome: 'served' }),
      expect.objectContaining({ incident: 'metrics_write_failed' }),
    ])
  })
})

describe('the lines themselves', () => {
  it('print as one line of JSON in wrangler dev and vitest, and carry the same fields', async () => {
    await storeExport(ID, DOC)
    const log = captureLog()
    await callWithEnv({}, `/server-api?id=${ID}`)
    const [logged] = log.logged() as [Record<symbol, () => string>]
    const printed = logged[Symbol.for('nodejs.util.inspect.custom')]!.call(logged)
    expect(printed).not.toContain('\n')
    expect(JSON.parse(printed)).toEqual(JSON.parse(JSON.stringify(logged)))
    expect(JSON.parse(printed)).toMatchObject({ event: 'retrieve', outcome: 'served' })
  })

  it('name a client only by a keyed hash of its rate-limit key, when a key is set', async () => {
    const key = 'log-client-key'
    const lineFrom = async (ip: string, vars: Partial<Cloudflare.Env> = { LOG_CLIENT_KEY: key }) =>
      requestLine(
        await observe('/server-api?id=999999', { headers: { 'CF-Connecting-IP': ip } }, vars),
      )
    const one = await lineFrom('2001:db8:0:1::5')
    const sameSubnet = await lineFrom('2001:db8:0:1:ffff::9')
    const other = await lineFrom('2001:db8:0:2::5')
    expect(one.client).toBe(await hmacHex(key, '2001:db8:0:1::/64'))
    expect(sameSubnet.client).toBe(one.client)
    expect(other.client).not.toBe(one.client)
    expect(await lineFrom('2001:db8:0:1::5', {})).not.toHaveProperty('client')
  })
})

/** HMAC-SHA-256 of `text` under `key`, first 8 bytes in hex: how an operator checks a hash. */
async function hmacHex(key: string, text: string): Promise<string> {
  const encoder = new TextEncoder()
  const imported = await crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', imported, encoder.encode(text)))
  return [...mac.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
