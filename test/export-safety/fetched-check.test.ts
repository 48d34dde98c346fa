import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/client'
import { call } from '../support/helpers'
import { FIXTURES, PLACEHOLDER } from '../support/fixtures'
import { published } from '../support/publishing'

/**
 * The one-argument check on what a plugin has: a real model published, then fetched through
 * HTTP with a tag (any the tag rules allow), is accepted whatever the tag, as it is with the tag
 * given; and it comes back byte for byte as published, the tag in place of the placeholder.
 */

afterEach(() => reset())

/** Tags the tag rules allow, chosen to look like the words a reader or the grammar keys on. */
const TAGS = ['fk', 'id', 'Passengers', 'passengers', 'minecraft', '_', '-', 'a'.repeat(100)]

describe('checkExportSafety on a real model as fetched', () => {
  it.each(Object.entries(FIXTURES))(
    'accepts %s fetched with any tag, with and without the tag',
    async (_, text) => {
      const { id } = await published({}, text)
      for (const tag of TAGS) {
        const res = await call(`/server-api?id=${id}&tag=${tag}`)
        expect(res.status).toBe(200)
        const body = await res.text()
        expect(body).toBe(text.replaceAll(PLACEHOLDER, tag))
        expect(checkExportSafety(body), tag).toEqual({ safe: true })
        expect(checkExportSafety(body, { tag }), tag).toEqual({ safe: true })
      }
    },
  )

  it('still holds a fetched form to its own parts: a selector naming a tag no part carries is refused', async () => {
    const { id } = await published({}, FIXTURES['stone-gate-136-displays']!)
    const body = await (await call(`/server-api?id=${id}&tag=fk`)).text()
    const foreign = body.replace('tag=fk_0,', 'tag=victim,')
    expect(checkExportSafety(foreign)).toMatchObject({
      safe: false,
      reason: 'selector',
      found: 'tag=victim',
    })
  })

  it('reads the published form as the service does when given the placeholder as the tag', () => {
    const text = FIXTURES['stone-gate-136-displays']!.replaceAll(PLACEHOLDER, 'bde')
    // A fetched form: accepted alone, refused as a published one (its tags lack the placeholder).
    expect(checkExportSafety(text)).toEqual({ safe: true })
    expect(checkExportSafety(text, { tag: PLACEHOLDER })).toMatchObject({
      safe: false,
      reason: 'selector',
    })
  })
})
