import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { exportKey } from '../support/storage-layout'
import { MAX_EXPORT_BYTES } from '../../src/contract/wire'
import { errorResponse, type Failure } from '../../src/http'
import { BASE, call, callWithEnv, storeExport } from '../support/helpers'
import { resolveRef, schemaErrors } from '../support/json-schema'
import { published, publishWith, SMALL_EXPORT } from '../support/publishing'

type Json = Record<string, unknown>
type Operation = `${'get' | 'head' | 'options' | 'post'} /${string}`

/** One way to make the service answer an operation with a status. */
interface Case {
  operation: Operation
  status: number
  /** Which of several causes of the status, when there are several. */
  why?: string
  send: () => Promise<Response>
}

const ID = '241235'
const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root"],"project_id":"p-1"}}'
/** Headers described by something other than a header object: the media type of `content`. */
const NOT_HEADER_OBJECTS = new Set(['content-type'])

let ipCounter = 0
/** A client address of its own, so no case spends another's quota. */
function nextIp(): string {
  ipCounter++
  return `198.51.100.${ipCounter}`
}

function exportCases(method: 'GET' | 'HEAD'): Case[] {
  const operation: Operation = `${method === 'GET' ? 'get' : 'head'} /server-api`
  const read = (path: string, vars: Partial<Cloudflare.Env> = {}, ip = nextIp()) =>
    callWithEnv(vars, path, { method, headers: { 'CF-Connecting-IP': ip } })
  const brokenKv = {
    getWithMetadata: () => Promise.reject(new Error('KV is down')),
  } as unknown as KVNamespace
  return [
    {
      operation,
      status: 200,
      send: async () => {
        await storeExport(ID, DOC)
        return read(`/server-api?id=${ID}&tag=t`)
      },
    },
    { operation, status: 400, send: () => read('/server-api?id=12') },
    { operation, status: 404, send: () => read('/server-api?id=123456') },
    {
      operation,
      status: 410,
      send: async () => {
        await storeExport(ID, DOC, { publishedAt: Date.now() - 601_000 })
        return read(`/server-api?id=${ID}`)
      },
    },
    {
      operation,
      status: 429,
      send: async () => {
        const ip = nextIp()
        const one = { RATE_LIMIT_SHORT: '1/60' }
        await read('/server-api?id=123456', one, ip)
        return read('/server-api?id=123456', one, ip)
      },
    },
    {
      operation,
      status: 500,
      send: () => read('/server-api?id=123456', { RATE_LIMIT_SHORT: 'plenty' }),
    },
    {
      operation,
      status: 503,
      why: 'not_ready',
      send: async () => {
        // Published without a grace copy, as if its grace had ended, and not in this KV.
        const { id } = await published({ PUBLISH_GRACE_SECONDS: '0' })
        await env.EXPORTS.delete(exportKey(id))
        return read(`/server-api?id=${id}`)
      },
    },
    {
      operation,
      status: 503,
      why: 'unavailable',
      send: () => read(`/server-api?id=${ID}`, { EXPORTS: brokenKv }),
    },
  ]
}

function editorCases(): Case[] {
  const operation: Operation = 'post /editor-api/exports'
  const unreachable = {
    getByName: () => new Proxy({}, { get: () => () => Promise.reject(new Error('down')) }),
  } as unknown as Cloudflare.Env['ID_ALLOCATOR']
  const tiny = { ID_SPACE_SIZE: '1' }
  return [
    { operation, status: 201, send: () => publishWith({}) },
    { operation, status: 400, why: 'invalid_json', send: () => publishWith({}, 'nope') },
    { operation, status: 400, why: 'invalid_export', send: () => publishWith({}, '{"x":1}') },
    {
      operation,
      status: 400,
      why: 'invalid_quick_command',
      send: () => publishWith({}, SMALL_EXPORT, { query: 'quickCommandPrefix=a%0Ab' }),
    },
    {
      operation,
      status: 401,
      send: () =>
        callWithEnv({}, '/editor-api/exports', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: SMALL_EXPORT,
        }),
    },
    { operation, status: 404, send: () => publishWith({ PUBLISH_TOKEN: undefined }) },
    {
      operation,
      status: 413,
      send: () =>
        publishWith({}, new ReadableStream({ pull: (c) => c.close() }), {
          headers: { 'Content-Length': String(MAX_EXPORT_BYTES + 1) },
        }),
    },
    {
      operation,
      status: 415,
      send: () => publishWith({}, SMALL_EXPORT, { headers: { 'Content-Type': 'text/plain' } }),
    },
    { operation, status: 500, send: () => publishWith({ EXPORT_TTL_SECONDS: 'soon' }) },
    {
      operation,
      status: 503,
      why: 'capacity',
      send: async () => {
        await published(tiny)
        return publishWith(tiny)
      },
    },
    {
      operation,
      status: 503,
      why: 'unavailable',
      send: () => publishWith({ ID_ALLOCATOR: unreachable }),
    },
  ]
}

function statusCases(): Case[] {
  const operation: Operation = 'get /editor-api/status'
  const get = (vars: Partial<Cloudflare.Env>, token = 'test-publish-token') =>
    callWithEnv(vars, '/editor-api/status', { headers: { Authorization: `Bearer ${token}` } })
  const unreachable = {
    getByName: () => ({ count: () => Promise.reject(new Error('down')) }),
  } as unknown as Cloudflare.Env['ID_ALLOCATOR']
  return [
    {
      operation,
      status: 200,
      send: async () => {
        await published({ ID_SPACE_SIZE: '1' })
        return get({ ID_SPACE_SIZE: '1' })
      },
    },
    { operation, status: 401, send: () => get({}, 'wrong') },
    { operation, status: 404, send: () => get({ PUBLISH_TOKEN: undefined }) },
    { operation, status: 500, send: () => get({ ID_SPACE_SIZE: 'many' }) },
    { operation, status: 503, send: () => get({ ID_ALLOCATOR: unreachable }) },
  ]
}

const CASES: Case[] = [
  ...exportCases('GET'),
  ...exportCases('HEAD'),
  {
    operation: 'options /server-api',
    status: 204,
    send: () =>
      call('/server-api?id=241235', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://plugin.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'x-plugin-version',
        },
      }),
  },
  ...editorCases(),
  ...statusCases(),
  { operation: 'get /openapi.json', status: 200, send: () => call('/openapi.json') },
  // The page is a static asset: the asset server answers it, with the headers of its _headers.
  { operation: 'get /', status: 200, send: () => env.ASSETS.fetch(`${BASE}/`) },
]

/**
 * Every internal failure reason, with the operations that can answer with it. Adding a reason
 * to `Failure` breaks the type-check here until it is placed, so its status gets documented.
 */
const FAILURES: {
  [R in Failure['reason']]: { sample: Extract<Failure, { reason: R }>; on: Operation[] }
} = {
  invalid_id: { sample: { reason: 'invalid_id', received: null }, on: reads() },
  unknown_id: { sample: { reason: 'unknown_id', id: ID }, on: reads() },
  expired: { sample: { reason: 'expired', id: ID }, on: reads() },
  not_yet_visible: {
    sample: { reason: 'not_yet_visible', id: ID, retryAfterSeconds: 5 },
    on: reads(),
  },
  storage_failed: {
    sample: { reason: 'storage_failed', cause: null },
    on: [...reads(), 'post /editor-api/exports'],
  },
  // Other methods than the documented ones; the path descriptions say so.
  method_not_allowed: {
    sample: { reason: 'method_not_allowed', method: 'PUT', allow: 'GET' },
    on: [],
  },
  route_not_found: {
    sample: { reason: 'route_not_found', path: '/' },
    on: editorOperations(),
  },
  rate_limited: {
    sample: { reason: 'rate_limited', retryAfterSeconds: 7, headers: {} },
    on: reads(),
  },
  limiter_unavailable: {
    sample: { reason: 'limiter_unavailable', retryAfterSeconds: 5 },
    on: reads(),
  },
  unauthorized: { sample: { reason: 'unauthorized' }, on: editorOperations() },
  unsupported_media_type: {
    sample: { reason: 'unsupported_media_type', contentType: null },
    on: ['post /editor-api/exports'],
  },
  too_large: { sample: { reason: 'too_large', limitBytes: 1 }, on: ['post /editor-api/exports'] },
  invalid_json: {
    sample: { reason: 'invalid_json', detail: '' },
    on: ['post /editor-api/exports'],
  },
  invalid_export: {
    sample: { reason: 'invalid_export', detail: '' },
    on: ['post /editor-api/exports'],
  },
  invalid_quick_command: {
    sample: { reason: 'invalid_quick_command', detail: '' },
    on: ['post /editor-api/exports'],
  },
  unsafe_export: {
    sample: { reason: 'unsafe_export', rule: 'command', path: 'content.commands[0]', detail: '' },
    on: ['post /editor-api/exports'],
  },
  id_space_full: {
    sample: { reason: 'id_space_full', retryAfterSeconds: 60 },
    on: ['post /editor-api/exports'],
  },
  allocator_failed: {
    sample: { reason: 'allocator_failed', cause: null },
    on: editorOperations(),
  },
  internal: {
    sample: { reason: 'internal', cause: null },
    on: [...reads(), ...editorOperations()],
  },
}

function reads(): Operation[] {
  return ['get /server-api', 'head /server-api']
}

function editorOperations(): Operation[] {
  return ['post /editor-api/exports', 'get /editor-api/status']
}

let document: Json

beforeAll(async () => {
  // The failures provoked here are logged by onError; the logs are not what is tested.
  vi.spyOn(console, 'error').mockImplementation(() => {})
  document = await (await call('/openapi.json')).json<Json>()
})
afterEach(() => reset())
afterAll(() => vi.restoreAllMocks())

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with unique operation IDs and only resolvable references', () => {
    expect(document.openapi).toBe('3.1.0')
    const ids = documentedOperations().map((op) => operationOf(op).operationId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const ref of refsIn(document)) expect(() => resolveRef(document, ref)).not.toThrow()
  })

  it('marks the editor API internal and bearer-protected', () => {
    for (const operation of editorOperations()) {
      expect(operationOf(operation)['x-internal']).toBe(true)
      expect(operationOf(operation).security).toEqual([{ editorToken: [] }])
    }
    const schemes = (document.components as Json).securitySchemes as Json
    expect(schemes.editorToken).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(document.security).toEqual([])
  })

  it('has a case below for every documented operation and status, and no other', () => {
    const documented = documentedOperations().flatMap((op) =>
      Object.keys(operationOf(op).responses as Json).map((status) => `${op} ${status}`),
    )
    const provoked = new Set(CASES.map((c) => `${c.operation} ${c.status}`))
    expect([...provoked].sort()).toEqual(documented.sort())
  })
})

describe('real responses match the document', () => {
  it.each(CASES.map((c) => [`${c.operation} ${c.status}${c.why ? ` (${c.why})` : ''}`, c]))(
    '%s',
    async (_, c) => {
      const response = await c.send()
      expect(response.status).toBe(c.status)
      expect(await mismatches(c.operation, response)).toEqual([])
    },
  )

  it.each(Object.entries(FAILURES))(
    'documents the status, headers and body of %s',
    async (_, f) => {
      for (const operation of f.on) {
        const response = errorResponse(f.sample)
        const documented = responseOf(operation, response.status)
        if (documented === undefined)
          throw new Error(`${operation} ${response.status} is not documented`)
        const names = Object.keys((documented.headers ?? {}) as Json).map((n) => n.toLowerCase())
        for (const [name] of response.headers) {
          if (!NOT_HEADER_OBJECTS.has(name)) expect(names, `${operation}: ${name}`).toContain(name)
        }
        if (operation.startsWith('head ')) continue
        const body: unknown = await response.json()
        expect(schemaErrors(body, bodySchema(documented, 'application/json'), document)).toEqual([])
      }
    },
  )
})

/** Every way a real response differs from what the document says of it. */
async function mismatches(operation: Operation, response: Response): Promise<string[]> {
  const documented = responseOf(operation, response.status)
  if (documented === undefined) return [`status ${response.status} is not documented`]
  const problems: string[] = []
  const headers = Object.entries((documented.headers ?? {}) as Record<string, Json>)
  const byName = new Map(headers.map(([name, h]) => [name.toLowerCase(), h]))
  for (const [name] of response.headers) {
    if (!NOT_HEADER_OBJECTS.has(name) && !byName.has(name)) {
      problems.push(`header ${name} is not documented`)
    }
  }
  for (const [name, header] of headers) {
    const value = response.headers.get(name)
    if (value === null) {
      if (header.required === true) problems.push(`required header ${name} is missing`)
      continue
    }
    for (const error of schemaErrors(
      headerValue(value, header.schema as Json),
      header.schema as Json,
      document,
    )) {
      problems.push(`header ${name} ${error}`)
    }
  }

  const text = await response.text()
  const content = documented.content as Json | undefined
  if (content === undefined) {
    if (text !== '') problems.push('a body where the document says none')
    return problems
  }
  const mediaType = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim()
  if (!(mediaType in content)) return [...problems, `media type ${mediaType} is not documented`]
  const body: unknown = mediaType === 'application/json' ? JSON.parse(text) : text
  return [...problems, ...schemaErrors(body, bodySchema(documented, mediaType), document)]
}

/** A header's text as the value its schema describes: integers are numbers. */
function headerValue(value: string, schema: Json): unknown {
  return schema.type === 'integer' && /^-?[0-9]+$/.test(value) ? Number(value) : value
}

function documentedOperations(): Operation[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    ['get', 'head', 'options', 'post', 'put', 'patch', 'delete']
      .filter((method) => method in item)
      .map((method) => `${method} ${path}` as Operation),
  )
}

function operationOf(operation: Operation): Json {
  const [method, path] = operation.split(' ') as [string, string]
  return ((document.paths as Record<string, Json>)[path]?.[method] ?? {}) as Json
}

function responseOf(operation: Operation, status: number): Json | undefined {
  return ((operationOf(operation).responses ?? {}) as Record<string, Json>)[String(status)]
}

function bodySchema(response: Json, mediaType: string): Json {
  return ((response.content as Record<string, Json>)[mediaType]?.schema ?? {}) as Json
}

function refsIn(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [child] : refsIn(child),
  )
}
