/**
 * The latency model (latency-worker.ts): a client's first request when the limiter's object and
 * KV each take a fixed time to answer, as they do over a network, with the limiter and without
 * it. Sequential requests, each from a never-seen address, the four kinds interleaved; medians
 * of the time to the last byte, measured here, and of the time to the response's headers: the
 * Worker's own answer. The two differ by the body's transfer, during which the new object's
 * storage work (its first write) runs in the same workerd process, as it would not in production.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { publishOnce } from '../lib/service-calls.mjs'
import { median } from '../lib/stats.mjs'
import { row, verdict } from '../lib/rows.mjs'
import { SERVER_API_PATH } from '../../../src/contract/routes.ts'

/** A first GET with the limiter may take at most this much longer than without it. */
const GET_TARGET_MS = 2

/** The two Workers of the model, for the bench's one workerd; `delays` in ms. */
export function latencyWorkers(worker, { vars, delays }) {
  const bindings = {
    ...vars,
    LIMITER_DELAY_MS: String(delays.limiterMs),
    KV_DELAY_MS: String(delays.kvMs),
  }
  const options = {
    kvNamespaces: { EXPORTS: 'exports' },
    durableObjects: {
      RATE_LIMITER: { className: 'PrefixRateLimiter', scriptName: 'service', useSQLite: true },
      ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
    },
  }
  return [
    worker('latency', 'latency-worker.js', { ...options, bindings }),
    worker('latency-no-limiter', 'latency-worker.js', {
      ...options,
      bindings: { ...bindings, WITH_LIMITER: 'false' },
    }),
  ]
}

/** Medians of first GETs and HEADs with and without the limiter under `delays`. */
export async function latencyModel({ urls, fixtures, token, delays, requests }) {
  const fixture = readFileSync(join(fixtures, 'animated-80-displays.json'))
  const { id } = await publishOnce(urls.service, fixture, token)
  const kinds = {
    GET: { url: urls.latency, method: 'GET' },
    'GET no limiter': { url: urls['latency-no-limiter'], method: 'GET' },
    HEAD: { url: urls.latency, method: 'HEAD' },
    'HEAD no limiter': { url: urls['latency-no-limiter'], method: 'HEAD' },
  }
  let clients = 0
  const once = async ({ url, method }) => {
    const n = ++clients
    const address = `100.${64 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`
    const started = performance.now()
    const response = await fetch(`${url}${SERVER_API_PATH}?id=${id}&tag=bde`, {
      method,
      headers: { 'CF-Connecting-IP': address },
    })
    const headersMs = performance.now() - started
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${method} ${url}: ${response.status}`)
    return { ms: performance.now() - started, headersMs }
  }
  const names = Object.keys(kinds)
  for (const name of names) for (let i = 0; i < 5; i++) await once(kinds[name])
  const times = Object.fromEntries(names.map((name) => [name, []]))
  for (let i = 0; i < requests; i++) {
    // The order rotates, so no kind always follows the same other.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]
      times[name].push(await once(kinds[name]))
    }
  }
  const medianOf = (field) =>
    Object.fromEntries(names.map((name) => [name, median(times[name].map((t) => t[field]))]))
  return { delays, requests, medians: medianOf('ms'), headerMedians: medianOf('headersMs') }
}

/** The rows: a first GET and a first HEAD with the limiter beside the same without it. */
export function latencyRows(r) {
  if (!r.latency) return []
  const { delays, medians, headerMedians } = r.latency
  const model = `limiter +${delays.limiterMs} ms, KV +${delays.kvMs} ms`
  const headers = (name) => `${headerMedians[name].toFixed(1)} ms`
  return ['GET', 'HEAD'].map((kind) => {
    const withIt = medians[kind]
    const without = medians[`${kind} no limiter`]
    const isGet = kind === 'GET'
    return row(
      'limiter',
      `latency model (${model}): p50 of a first ${kind} from a new address, with the limiter`,
      `${withIt.toFixed(1)} ms (${signed(withIt - without)} ms); headers ${headers(kind)}`,
      `without the limiter: ${without.toFixed(1)} ms; headers ${headers(`${kind} no limiter`)}`,
      withIt / without,
      isGet ? `<= +${GET_TARGET_MS} ms` : '',
      isGet ? verdict(withIt - without <= GET_TARGET_MS) : '',
    )
  })
}

function signed(ms) {
  return `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`
}
