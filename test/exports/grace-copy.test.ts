/**
 * The allocator's grace copy seen from a location that KV has not reached: with
 * SIMULATED_KV_LAG_SECONDS every KV entry counts as missing, so a read right after publishing
 * is served from the shard's copy. Each answer is compared with the same read served from KV.
 */
import { reset, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { concatBytes } from '../../src/substitution'
import { exportKey } from '../support/storage-layout'
import { MAX_EXPORT_BYTES } from '../../src/contract/wire'
import type { IdAllocator } from '../../src/ids'
import { idSpace, shardName, shardOfId } from '../support/id-layout'
import { COPY_CHUNK_BYTES, WHOLE_READ_MAX_BYTES } from '../support/documented-limits'
import { FIXTURES, PLACEHOLDER, syntheticExport } from '../support/fixtures'
import { callWithEnv, WAIT_FOR } from '../support/helpers'
import { errorOf, published } from '../support/publishing'

/** A location KV has not reached for the whole lifetime. */
const LAGGED = { SIMULATED_KV_LAG_SECONDS: '600' }
const T0 = Date.UTC(2030, 0, 1)

/** Headers a GET from the copy and from KV must share, the rate limit's included. */
const SAME_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'x-content-type-options',
  'x-export-expires-in',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-ratelimit-limit',
  'ratelimit-policy',
]

afterEach(async () => {
  vi.useRealTimers()
  await reset()
})

/** The allocator object of the shard that issued `id`, in the full ID space. */
function shardOf(id: string) {
  const space = idSpace(900_000)
  return env.ID_ALLOCATOR.getByName(shardName(space, shardOfId(space, id)))
}

/** Rows of the shard's copy tables for `id`. */
async function copyRows(id: string): Promise<{ copies: number; chunks: number }> {
  return runInDurableObject(shardOf(id), (_: IdAllocator, state) => {
    const count = (table: string) =>
      state.storage.sql
        .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE id = ?`, Number(id))
        .one().n
    return { copies: count('grace_copies'), chunks: count('grace_chunks') }
  })
}

function headersOf(res: Response, names = SAME_HEADERS): Record<string, string | null> {
  return Object.fromEntries(names.map((name) => [name, res.headers.get(name)]))
}

/** GET and HEAD of `id` with `tag`, from a lagged location and from one KV has reached. */
async function readBothWays(id: string, tag: string) {
  const path = `/server-api?id=${id}&tag=${tag}`
  const fromCopy = await callWithEnv(LAGGED, path)
  const copyBody = new Uint8Array(await fromCopy.arrayBuffer())
  const headFromCopy = await callWithEnv(LAGGED, path, { method: 'HEAD' })
  const fromKv = await callWithEnv({}, path)
  const kvBody = new Uint8Array(await fromKv.arrayBuffer())
  return { fromCopy, copyBody, headFromCopy, fromKv, kvBody }
}

/**
 * A deployment without the display-model check, for documents of JSON of any shape (a padding
 * member, placeholders as member names), which the check refuses in `content`.
 */
const UNCHECKED = { EXPORT_POLICY: 'off' }

describe('a read right after publishing, where KV has not arrived', () => {
  it.each(Object.keys(FIXTURES))(
    'serves %s from the copy: 200, the same bytes and headers as from KV, HEAD too',
    async (name) => {
      const document = FIXTURES[name]!
      const { id } = await published({}, document)
      const { fromCopy, copyBody, headFromCopy, fromKv, kvBody } = await readBothWays(id, 'bde')
      expect(fromCopy.status).toBe(200)
      expect(new TextDecoder().decode(copyBody)).toBe(document.replaceAll(PLACEHOLDER, 'bde'))
      expect(copyBody).toEqual(kvBody)
      expect(headersOf(fromCopy)).toEqual(headersOf(fromKv))
      expect(fromCopy.headers.get('content-length')).toBe(String(copyBody.byteLength))
      expect(headFromCopy.status).toBe(200)
      expect(headersOf(headFromCopy)).toEqual(headersOf(fromCopy))
      expect(await headFromCopy.text()).toBe('')
    },
  )

  it('streams a copy larger than one chunk, byte-exact, with the placeholders across chunk edges', async () => {
    const document = syntheticExport(3 * COPY_CHUNK_BYTES + 12_345)
    expect(document.length).toBeGreaterThan(WHOLE_READ_MAX_BYTES)
    const { id } = await published({}, document)
    expect(await copyRows(id)).toEqual({ copies: 1, chunks: 4 })
    const { fromCopy, copyBody, headFromCopy, fromKv, kvBody } = await readBothWays(id, 'my_tag')
    expect(fromCopy.status).toBe(200)
    expect(copyBody.byteLength).toBe(kvBody.byteLength)
    expect(copyBody).toEqual(kvBody)
    expect(new TextDecoder().decode(copyBody)).toBe(document.replaceAll(PLACEHOLDER, 'my_tag'))
    expect(headersOf(fromCopy)).toEqual(headersOf(fromKv))
    expect(headersOf(headFromCopy)).toEqual(headersOf(fromCopy))
  })

  it('keeps a document of 25 MiB, the most KV takes, in 25 chunks and serves it whole', async () => {
    const base = syntheticExport(MAX_EXPORT_BYTES - 300, 50)
    const document = base.replace(
      '"project_id"',
      `"pad":"${'p'.repeat(MAX_EXPORT_BYTES - base.length - 9)}","project_id"`,
    )
    expect(document.length).toBe(MAX_EXPORT_BYTES)
    const { id } = await published(UNCHECKED, document)
    expect(await copyRows(id)).toEqual({ copies: 1, chunks: 25 })
    const res = await callWithEnv(LAGGED, `/server-api?id=${id}&tag=tag`)
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body.length).toBe(Number(res.headers.get('content-length')))
    expect(body === document.replaceAll(PLACEHOLDER, 'tag')).toBe(true)
  })

  it('serves a document of exactly one chunk, and one of a chunk and a byte', async () => {
    for (const extra of [0, 1]) {
      const base = syntheticExport(COPY_CHUNK_BYTES - 200)
      const pad = COPY_CHUNK_BYTES + extra - new TextEncoder().encode(base).byteLength
      const document = base.replace('"project_id"', `"pad":"${'p'.repeat(pad - 9)}","project_id"`)
      expect(new TextEncoder().encode(document).byteLength).toBe(COPY_CHUNK_BYTES + extra)
      const { id } = await published(UNCHECKED, document)
      expect((await copyRows(id)).chunks).toBe(1 + extra)
      const { fromCopy, copyBody, kvBody } = await readBothWays(id, 't')
      expect(fromCopy.status).toBe(200)
      expect(copyBody).toEqual(kvBody)
    }
  })

  it('streams a one-chunk copy whose substituted form is over the whole-read limit', async () => {
    const document = `{"content":{"a":"${PLACEHOLDER.repeat(65_000)}"}}`
    expect(document.length).toBeLessThanOrEqual(COPY_CHUNK_BYTES)
    const tag = 'T'.repeat(100)
    const { id } = await published(UNCHECKED, document)
    expect(await copyRows(id)).toEqual({ copies: 1, chunks: 1 })
    const { fromCopy, copyBody, fromKv, kvBody } = await readBothWays(id, tag)
    expect(fromCopy.status).toBe(200)
    expect(copyBody.byteLength).toBe(document.length - 65_000 * 16 + 65_000 * 100)
    expect(copyBody.byteLength).toBeGreaterThan(WHOLE_READ_MAX_BYTES)
    expect(copyBody).toEqual(kvBody)
    expect(headersOf(fromCopy)).toEqual(headersOf(fromKv))
  })

  it('substitutes escaped placeholders in the copy as in KV (the JSON splicer)', async () => {
    const document = '{"content":{"[MODELSERVERTAG]_k":"\\u005BMODELSERVERTAG\\u005d_x","n":1.50}}'
    const { id } = await published(UNCHECKED, document)
    const { fromCopy, copyBody, kvBody } = await readBothWays(id, 'T')
    expect(fromCopy.status).toBe(200)
    expect(new TextDecoder().decode(copyBody)).toBe('{"content":{"T_k":"T_x","n":1.50}}')
    expect(copyBody).toEqual(kvBody)
  })

  it('counts the read against the rate limit like any other', async () => {
    const { id } = await published()
    const limited = { ...LAGGED, RATE_LIMIT_SHORT: '2/60' }
    const path = `/server-api?id=${id}`
    const ip = { headers: { 'CF-Connecting-IP': '203.0.113.9' } }
    const first = await callWithEnv(limited, path, ip)
    expect(first.status).toBe(200)
    expect(first.headers.get('X-RateLimit-Remaining')).toBe('1')
    expect((await callWithEnv(limited, path, ip)).status).toBe(200)
    expect((await callWithEnv(limited, path, ip)).status).toBe(429)
  })

  it('treats a KV entry younger than the lag as missing, and an older one as there', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const { id } = await published({ PUBLISH_GRACE_SECONDS: '0' })
    const lag = { SIMULATED_KV_LAG_SECONDS: '30' }
    vi.setSystemTime(T0 + 29_999)
    const early = await callWithEnv(lag, `/server-api?id=${id}`)
    expect(early.status).toBe(503)
    expect((await errorOf(early)).code).toBe('not_ready')
    vi.setSystemTime(T0 + 30_000)
    expect((await callWithEnv(lag, `/server-api?id=${id}`)).status).toBe(200)
  })
})

describe('the grace period', () => {
  it('ends at PUBLISH_GRACE_SECONDS: then a location without KV answers 503 not_ready', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const { id } = await published({ PUBLISH_GRACE_SECONDS: '60' })
    vi.setSystemTime(T0 + 59_999)
    expect((await callWithEnv(LAGGED, `/server-api?id=${id}`)).status).toBe(200)
    vi.setSystemTime(T0 + 60_000)
    const late = await callWithEnv(LAGGED, `/server-api?id=${id}`)
    expect(late.status).toBe(503)
    expect(late.headers.get('Retry-After')).toBe('5')
    expect((await errorOf(late)).code).toBe('not_ready')
    const head = await callWithEnv(LAGGED, `/server-api?id=${id}`, { method: 'HEAD' })
    expect(head.status).toBe(503)
  })

  it('defaults to 120 seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const { id } = await published()
    vi.setSystemTime(T0 + 119_999)
    expect((await callWithEnv(LAGGED, `/server-api?id=${id}`)).status).toBe(200)
    vi.setSystemTime(T0 + 120_000)
    expect((await callWithEnv(LAGGED, `/server-api?id=${id}`)).status).toBe(503)
  })

  it('never outlasts the lifetime: the ID then answers 410 expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const vars = { EXPORT_TTL_SECONDS: '60', PUBLISH_GRACE_SECONDS: '120' }
    const { id } = await published(vars)
    vi.setSystemTime(T0 + 59_999)
    expect((await callWithEnv({ ...vars, ...LAGGED }, `/server-api?id=${id}`)).status).toBe(200)
    vi.setSystemTime(T0 + 60_000)
    const expired = await callWithEnv({ ...vars, ...LAGGED }, `/server-api?id=${id}`)
    expect(expired.status).toBe(410)
  })

  it('keeps no copy with PUBLISH_GRACE_SECONDS=0', async () => {
    const { id } = await published({ PUBLISH_GRACE_SECONDS: '0' })
    expect(await copyRows(id)).toEqual({ copies: 0, chunks: 0 })
    const res = await callWithEnv(LAGGED, `/server-api?id=${id}`)
    expect((await errorOf(res)).code).toBe('not_ready')
  })

  it('frees the storage when the alarm fires, and sets the alarm only when it must move', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const first = await published({}, syntheticExport(2 * COPY_CHUNK_BYTES))
    const alarmAfterFirst = await shardAlarm(first.id)
    expect(alarmAfterFirst).toBe(T0 + 120_000 + 10_000)
    // A later copy in the same shard is due later: the pending alarm stays as it is.
    vi.setSystemTime(T0 + 5_000)
    const second = await publishedInShardOf(first.id)
    expect(await shardAlarm(first.id)).toBe(alarmAfterFirst)
    vi.setSystemTime(T0 + 130_000)
    expect(await runDurableObjectAlarm(shardOf(first.id))).toBe(true)
    expect(await copyRows(first.id)).toEqual({ copies: 0, chunks: 0 })
    expect(await copyRows(second)).toEqual({ copies: 0, chunks: 0 })
    // Everything was due: no alarm is left, and KV still serves both.
    expect(await shardAlarm(first.id)).toBeNull()
    expect((await callWithEnv({}, `/server-api?id=${second}`)).status).toBe(200)
  })

  it('keeps a copy being streamed past its grace until the read ends, then frees it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const document = syntheticExport(3 * COPY_CHUNK_BYTES)
    const { id } = await published({}, document)
    const res = await callWithEnv(LAGGED, `/server-api?id=${id}&tag=t`)
    const reader = res.body!.getReader()
    const chunks: Uint8Array[] = [(await reader.read()).value!]
    vi.setSystemTime(T0 + 130_000)
    await runDurableObjectAlarm(shardOf(id))
    expect((await copyRows(id)).copies).toBe(1)
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value)
    }
    const body = new TextDecoder().decode(concatBytes(chunks))
    expect(body).toBe(document.replaceAll(PLACEHOLDER, 't'))
    await runDurableObjectAlarm(shardOf(id))
    expect(await copyRows(id)).toEqual({ copies: 0, chunks: 0 })
  })

  it('frees a copy whose reader went away mid-stream once it is due', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const { id } = await published({}, syntheticExport(3 * COPY_CHUNK_BYTES))
    const res = await callWithEnv(LAGGED, `/server-api?id=${id}&tag=t`)
    const reader = res.body!.getReader()
    await reader.read()
    await reader.cancel(new Error('Network connection lost.'))
    vi.setSystemTime(T0 + 130_000)
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(shardOf(id))
      expect(await copyRows(id)).toEqual({ copies: 0, chunks: 0 })
    }, WAIT_FOR)
  })

  it('drops due copies lazily at the next allocation in the shard', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(T0)
    const { id } = await published()
    expect(await copyRows(id)).toEqual({ copies: 1, chunks: 1 })
    vi.setSystemTime(T0 + 120_000)
    await publishedInShardOf(id)
    expect(await copyRows(id)).toEqual({ copies: 0, chunks: 0 })
  })
})

/** The shard's pending alarm, ms since the Unix epoch, or null. */
async function shardAlarm(id: string): Promise<number | null> {
  return runInDurableObject(shardOf(id), (_: IdAllocator, state) => state.storage.getAlarm())
}

/** Publishes until an ID of the same shard as `id` comes out; returns it. */
async function publishedInShardOf(id: string): Promise<string> {
  const space = idSpace(900_000)
  const shard = shardOfId(space, id)
  for (let i = 0; i < 200; i++) {
    const next = (await published()).id
    if (shardOfId(space, next) === shard) return next
  }
  throw new Error(`no ID of shard ${shard} in 200 publishes`)
}

describe('the KV entry beside the copy', () => {
  it('is written too: a location KV has reached reads it, the copy untouched', async () => {
    const { id } = await published()
    expect(await env.EXPORTS.get(exportKey(id))).not.toBeNull()
  })
})
