/**
 * Golden answers: every documented case of the public route, answered by the Worker in workerd,
 * reduced to what a caller reads (the status, the headers callers read, the body's shape, the
 * `code`, and for a 200 the body byte for byte) and compared with golden-answers.json, recorded
 * once. A change that the OpenAPI document does not describe (a header's value, a body member,
 * an encoding) fails here. Numbers that depend on time and quota are reduced to their shape
 * (`N`); the message of an error is for people and may change, so only its type is kept.
 *
 * A change the promise allows (a new header, a new member) fails too, on purpose: whoever makes
 * it updates the JSON file in the same commit (the failure prints what to write), so every change
 * of the answers is a line in a review.
 */
import { reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { exportKey } from '../support/storage-layout'
import { BODY_HEADERS } from '../support/body-headers'
import { callWithEnv, storeExport } from '../support/helpers'
import { published } from '../support/publishing'
import GOLDEN from './golden-answers.json'

const ID = '241235'
const EXPIRED_ID = '400000'
const DOC = '{"content":{"Tags":["[MODELSERVERTAG]_root","x"],"project_id":"p-1","n":1.50}}'

/** Response headers a caller reads (docs/api.md), lower case as `Headers` lists them. */
const READ_HEADERS = [
  ...BODY_HEADERS,
  'x-export-expires-in',
  'x-export-tag',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit',
  'ratelimit-policy',
  'allow',
  'location',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'access-control-allow-credentials',
  'deprecation',
  'sunset',
  'link',
]
/** Headers whose numbers follow the clock, the quota or the message's length: kept as shapes. */
const NUMBERS_VARY = new Set([
  'content-length',
  'x-export-expires-in',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit',
  'ratelimit-policy',
])

interface Golden {
  status: number
  headers: Record<string, string>
  body: unknown
  /** A 200's body, byte for byte: `content` is promised unchanged. */
  text?: string
}

let ipCounter = 0
/** A request from a client address of its own, with some vars replaced. */
function ask(
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
  vars: Partial<Cloudflare.Env> = {},
  ip = `192.0.2.${++ipCounter}`,
): Promise<Response> {
  const headers = { 'CF-Connecting-IP': ip, ...init.headers }
  return callWithEnv(vars, path, { method: init.method ?? 'GET', headers })
}

const brokenKv = {
  getWithMetadata: () => Promise.reject(new Error('KV is down')),
} as unknown as KVNamespace

/** Every documented case of `/server-api`, by the name golden-answers.json gives it. */
const CASES: Record<string, () => Promise<Response>> = {
  'GET 200 with a tag': () => ask(`/server-api?id=${ID}&tag=gate_1`),
  'GET 200 with a tag sanitizing changes': () => ask(`/server-api?id=${ID}&tag=gate%201!`),
  'GET 200 without a tag': () => ask(`/server-api?id=${ID}`),
  'GET 200 gzip': () =>
    ask(`/server-api?id=${ID}&tag=gate_1`, { headers: { 'Accept-Encoding': 'gzip' } }),
  'GET 200 identity': () =>
    ask(`/server-api?id=${ID}&tag=gate_1`, { headers: { 'Accept-Encoding': 'identity;q=0' } }),
  'GET 400 invalid_id': () => ask('/server-api?id=12'),
  'GET 404 not_found': () => ask('/server-api?id=999999'),
  'GET 410 expired': () => ask(`/server-api?id=${EXPIRED_ID}`),
  'GET 429 rate_limited': async () => {
    const one = { RATE_LIMIT_SHORT: '1/60' }
    await ask(`/server-api?id=${ID}`, {}, one, '192.0.2.250')
    return ask(`/server-api?id=${ID}`, {}, one, '192.0.2.250')
  },
  'GET 500 internal': () => ask(`/server-api?id=${ID}`, {}, { RATE_LIMIT_SHORT: 'plenty' }),
  'GET 503 not_ready': async () => {
    const { id } = await published({ PUBLISH_GRACE_SECONDS: '0' })
    await env.EXPORTS.delete(exportKey(id))
    return ask(`/server-api?id=${id}`)
  },
  'GET 503 unavailable': () => ask(`/server-api?id=${ID}`, {}, { EXPORTS: brokenKv }),
  'HEAD 200': () => ask(`/server-api?id=${ID}&tag=gate_1`, { method: 'HEAD' }),
  'HEAD 200 gzip': () =>
    ask(`/server-api?id=${ID}`, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } }),
  'HEAD 404 not_found': () => ask('/server-api?id=999999', { method: 'HEAD' }),
  'OPTIONS 204 preflight': () =>
    ask(`/server-api?id=${ID}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://plugin.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-plugin-version',
      },
    }),
  'POST 405 method_not_allowed': () => ask(`/server-api?id=${ID}`, { method: 'POST' }),
}

/** What a caller reads of a response. */
async function goldenOf(response: Response): Promise<Golden> {
  const headers: Record<string, string> = {}
  for (const name of READ_HEADERS) {
    const value = response.headers.get(name)
    if (value !== null)
      headers[name] = NUMBERS_VARY.has(name) ? value.replace(/[0-9]+/g, 'N') : value
  }
  const text = await bodyText(response)
  const golden: Golden = {
    status: response.status,
    headers,
    body: text === '' ? null : shapeOf(JSON.parse(text)),
  }
  if (response.status === 200 && text !== '') golden.text = text
  return golden
}

/** The body as text, decompressed when the answer is compressed. */
async function bodyText(response: Response): Promise<string> {
  const coding = response.headers.get('content-encoding')
  if (response.body === null || (coding !== 'gzip' && coding !== 'br')) return response.text()
  const bytes = new Uint8Array(await response.arrayBuffer())
  // Within workerd the runtime may hand the body over before compressing it; read it either way.
  if (coding !== 'gzip' || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return new TextDecoder().decode(bytes)
  const plain = new Response(
    new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')),
  )
  return plain.text()
}

/** Types instead of values, except the `code` a program branches on. */
function shapeOf(value: unknown, key = ''): unknown {
  if (key === 'code') return value
  if (Array.isArray(value)) return value.map((item) => shapeOf(item))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v, k)]))
  }
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return value === null ? 'null' : typeof value
}

const answers: Record<string, Golden> = {}

beforeAll(async () => {
  // The failures provoked here are logged; the logs are not what is compared.
  vi.spyOn(console, 'error').mockImplementation(() => {})
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.parse('2026-12-15T10:00:00Z'))
  await storeExport(ID, DOC)
  await storeExport(EXPIRED_ID, DOC, { publishedAt: Date.now() - 700_000 })
  for (const [name, send] of Object.entries(CASES)) answers[name] = await goldenOf(await send())
})
afterAll(async () => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  await reset()
})

describe('golden answers of /server-api', () => {
  it('has one recorded answer for each case, and no other', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual(Object.keys(CASES).sort())
  })

  it.each(Object.keys(CASES))('%s answers as recorded', (name) => {
    expect(
      answers[name],
      `If the change is meant (docs/api.md#compatibility), record it in golden-answers.json:\n${JSON.stringify({ [name]: answers[name] })}`,
    ).toEqual((GOLDEN as Record<string, unknown>)[name])
  })
})
