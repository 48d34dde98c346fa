import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { getExport, type FetchLike } from '../../src/client'
import { BASE, callWithEnv, storeExport } from '../support/helpers'

/**
 * Isolation between models (docs/api.md, "Isolation between models"): the client fetches each
 * copy with a tag of its own unless the caller names one, so no two copies' parts share a tag
 * and one copy's frames never reach another's parts.
 */

const DOC = '{"content":{"project_id":"p-1","Tags":["[MODELSERVERTAG]_root"]}}'

let ip = 10
/** The client's requests, sent to the Worker, each from its own address (no rate limit met). */
const toWorker: FetchLike = (url, init) =>
  callWithEnv({}, url.slice(BASE.length), {
    ...init,
    headers: { ...init.headers, 'CF-Connecting-IP': `192.0.2.${ip++}` },
  })

afterEach(() => reset())

describe('the tag a copy is fetched with', () => {
  it('is unique to each copy when the caller names none, and its parts carry it', async () => {
    await storeExport('241235', DOC)
    const first = await getExport('241235', { baseUrl: BASE, fetch: toWorker })
    const second = await getExport('241235', { baseUrl: BASE, fetch: toWorker })
    expect(first.tag).toMatch(/^copy_[0-9a-f]{24}$/)
    expect(second.tag).not.toBe(first.tag)
    expect(first.content).toEqual({ project_id: 'p-1', Tags: [`${first.tag}_root`] })
    expect(second.content).toEqual({ project_id: 'p-1', Tags: [`${second.tag}_root`] })
  })

  it('is the one the caller names, or none (the shared default) when told null', async () => {
    await storeExport('241235', DOC)
    const named = await getExport('241235', { baseUrl: BASE, tag: 'gate_1', fetch: toWorker })
    expect(named).toMatchObject({ tag: 'gate_1', content: { Tags: ['gate_1_root'] } })
    const shared = await getExport('241235', { baseUrl: BASE, tag: null, fetch: toWorker })
    expect(shared).toMatchObject({ tag: null, content: { Tags: ['model_root'] } })
  })
})
