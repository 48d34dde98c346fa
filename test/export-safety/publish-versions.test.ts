import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import { ALLOWED_VECTORS, REFUSED_VECTORS } from '../support/export-safety-vectors'
import { PLACEHOLDER } from '../support/fixtures'
import { call } from '../support/helpers'
import { errorOf, publishWith, type Published } from '../support/publishing'

afterEach(() => reset())

/** The vectors of each game version's item forms: 1.19.4 and 1.20.4 (tag), 1.21.x (components). */
const VERSIONED = ALLOWED_VECTORS.filter((vector) => vector.file.startsWith('allowed-version-'))

describe('exports of every game version, published and fetched over HTTP', () => {
  it('has one per item form: 1.19.4, 1.20.4, 1.21.1 and 1.21.5', () => {
    expect(VERSIONED.map((vector) => JSON.parse(vector.text).content.version).sort()).toEqual([
      '1.19.4',
      '1.20.4',
      '1.21.1',
      '1.21.5',
    ])
  })

  it.each(VERSIONED.map((vector) => [vector.file, vector] as const))(
    'publishes %s with 201 and serves it back byte for byte with a tag',
    async (_, vector) => {
      const res = await publishWith({}, vector.text)
      expect(res.status, await res.clone().text()).toBe(201)
      const { id } = await res.json<Published>()
      const fetched = await call(`/server-api?id=${id}&tag=bde`)
      expect(fetched.status).toBe(200)
      const body = await fetched.text()
      expect(body).toBe(vector.text.replaceAll(PLACEHOLDER, 'bde'))
      expect(checkExportSafety(body, { tag: 'bde' })).toEqual({ safe: true })
    },
  )

  it('publishes a textured head, dyed leather and CustomModelData of 1.19.4 as tag', async () => {
    const vector = VERSIONED.find((v) => v.file === 'allowed-version-1-19-4-legacy-items.json')!
    for (const shown of ['SkullOwner', 'textures', 'display:{color:', 'CustomModelData']) {
      expect(vector.text).toContain(shown)
    }
    expect((await publishWith({}, vector.text)).status).toBe(201)
  })

  it.each([
    ['refused-text-click-event-run-command.json', 'clickEvent'],
    ['refused-text-click-event-snbt.json', 'click_event'],
    ['refused-text-click-event-in-frame-name.json', 'clickEvent'],
    ['refused-text-click-event-legacy-lore.json', 'clickEvent'],
  ])('refuses %s with 400 unsafe_export naming the click event', async (file, found) => {
    const vector = REFUSED_VECTORS.find((v) => v.file === file)!
    const res = await publishWith({}, vector.text)
    expect(res.status).toBe(400)
    const error = await errorOf(res)
    expect(error).toMatchObject({ code: 'unsafe_export', path: vector.path })
    expect(error.message).toContain(`holds a click event ("${found}")`)
  })

  it('refuses an item form the declared version does not read, naming it', async () => {
    for (const [file, found] of [
      ['refused-version-tag-in-1-21.json', 'item.tag'],
      ['refused-version-components-in-1-20-4.json', 'item.count'],
    ]) {
      const vector = REFUSED_VECTORS.find((v) => v.file === file)!
      const res = await publishWith({}, vector.text)
      expect(res.status).toBe(400)
      const error = await errorOf(res)
      expect(error).toMatchObject({ code: 'unsafe_export', path: vector.path })
      expect(error.message).toContain(`sets "${found}" to a value of another type`)
    }
  })
})
