/**
 * The corpus covers every game version the editor exports and every part kind a model holds,
 * and its manifest says what each file holds and where its shape comes from.
 */
import { describe, expect, it } from 'vitest'
import {
  CORPUS,
  CORPUS_FILES,
  CORPUS_KINDS,
  CORPUS_VERSIONS,
  type CorpusEntry,
} from '../support/corpus'
import { kindsOf } from './kinds'

/** The versions and kinds no entry holds. */
function missing(entries: readonly Pick<CorpusEntry, 'version' | 'kinds'>[]) {
  return {
    versions: CORPUS_VERSIONS.filter((v) => !entries.some((entry) => entry.version === v)),
    kinds: CORPUS_KINDS.filter((k) => !entries.some((entry) => entry.kinds.includes(k))),
  }
}

describe('the must-accept corpus', () => {
  it('holds every version and every part kind', () => {
    expect(missing(CORPUS)).toEqual({ versions: [], kinds: [] })
  })

  it('notices a version or a kind that no entry holds', () => {
    const without = CORPUS.filter(
      (entry) => entry.version !== '1.20.4' && !entry.kinds.includes('item-banner'),
    )
    expect(missing(without)).toEqual({ versions: ['1.20.4'], kinds: ['item-banner'] })
  })

  it('lists every file of test/corpus/ in its manifest, once', () => {
    const listed = CORPUS.map((entry) => entry.file)
    expect(new Set(listed).size).toBe(listed.length)
    for (const file of CORPUS_FILES) expect(listed).toContain(file)
  })

  it.each(CORPUS.map((entry) => [entry.file, entry] as const))(
    '%s declares the version its manifest entry names and holds exactly its kinds',
    (_, entry) => {
      const content = (JSON.parse(entry.text) as { content: { version?: unknown } }).content
      expect(content.version).toBe(entry.version)
      expect(CORPUS_VERSIONS).toContain(entry.version)
      expect(kindsOf(entry.text, CORPUS_KINDS)).toEqual(
        CORPUS_KINDS.filter((kind) => entry.kinds.includes(kind)),
      )
      for (const kind of entry.kinds) expect(CORPUS_KINDS).toContain(kind)
    },
  )

  it.each(CORPUS.map((entry) => [entry.file, entry] as const))(
    '%s names its source: repository, path and commit',
    (_, entry) => {
      expect(entry.source.repo).toMatch(/^(?:[\w.-]+\/[\w.-]+|this repository)$/)
      expect(entry.source.path).not.toBe('')
      expect(entry.source.commit).toMatch(/^[0-9a-f]{7,40}$/)
      expect(entry.note).not.toBe('')
      expect(typeof entry.recreated).toBe('boolean')
    },
  )
})
