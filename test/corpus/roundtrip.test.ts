/**
 * Every export of the corpus publishes through the editor API and comes back byte for byte,
 * its placeholders replaced by the tag and nothing else changed. A refusal here is a real model
 * that the check turns away: test/corpus/README.md says how one joins the corpus.
 */
import { reset } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { CORPUS } from '../support/corpus'
import { PLACEHOLDER } from '../support/fixtures'
import { callWithEnv } from '../support/helpers'
import { publishWith, type Published } from '../support/publishing'

afterEach(() => reset())

const TAGS = ['bde', 'Corpus-Tag_9']

describe('publishing the must-accept corpus', () => {
  it.each(CORPUS.map((entry) => [entry.file, entry] as const))(
    'publishes %s (201) and serves it back byte-identical with any tag',
    async (_, entry) => {
      const res = await publishWith({}, entry.text)
      expect(res.status, await res.clone().text()).toBe(201)
      const { id } = await res.json<Published>()
      for (const tag of TAGS) {
        const read = await callWithEnv({}, `/server-api?id=${id}&tag=${tag}`)
        expect(read.status).toBe(200)
        const body = new Uint8Array(await read.arrayBuffer())
        const expected = new TextEncoder().encode(entry.text.replaceAll(PLACEHOLDER, tag))
        expect(body.byteLength).toBe(expected.byteLength)
        expect(Buffer.from(body).equals(Buffer.from(expected))).toBe(true)
      }
    },
  )
})
