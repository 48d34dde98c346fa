import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_TAG_LENGTH } from '../../src/contract/wire'
import { checkExportSafety } from '../../src/export-safety'
import { ALLOWED_VECTORS } from '../support/export-safety-vectors'
import { fetchedForm } from '../support/fetched-form'
import { FIXTURES } from '../support/fixtures'
import { displayModels, exportText, hostileExports } from '../support/hostile-exports'
import vocabulary from '../../src/export-safety/types/vocabulary.json'
import words from '../vectors/export-safety/words.json'

/**
 * The placeholder is no place to hide a marker. For any export the check
 * accepts and any tag the tag rules allow, the form a plugin fetches (the tag substituted by the
 * product's own substitution) gets the same verdict, checked with `checkExportSafety(fetched,
 * { tag })` as a plugin would: accepted. The tags include the words a substitution could turn
 * into a reader's marker or a key (`id`, `Passengers`, `passengers`, `minecraft`), the shortest
 * (`_`, `-`) and the longest (100 characters), and random ones.
 */

const SEED = 41

/** Tags chosen to complete what a placeholder could stand for, and the extremes. */
const CHOSEN_TAGS = [
  'id',
  'Passengers',
  'passengers',
  'minecraft',
  '_',
  '-',
  'Z'.repeat(MAX_TAG_LENGTH),
  'a-'.repeat(MAX_TAG_LENGTH / 2),
]
/** Every word of the vocabulary that is a tag: keys, text kinds, commands' words. */
const VOCABULARY_TAGS = [
  ...new Set(
    [
      ...Object.keys(vocabulary.entities),
      ...Object.values(vocabulary.entities).flatMap((entity) =>
        Array.isArray(entity.keys) ? entity.keys : Object.keys(entity.keys),
      ),
      ...vocabulary.text.worldReadingKinds,
      ...vocabulary.selectorArguments,
    ].filter((word) => /^[A-Za-z0-9_-]{1,100}$/.test(word)),
  ),
]
const tagArb = fc.oneof(
  fc.constantFrom(...CHOSEN_TAGS, ...VOCABULARY_TAGS),
  fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TAG_LENGTH}}$`)),
)

/** Every accepted export the tests have: fixtures, allowed vectors and words, generated models. */
const ACCEPTED: Array<[string, string]> = [
  ...Object.entries(FIXTURES),
  ...ALLOWED_VECTORS.map((vector): [string, string] => [vector.file, vector.text]),
  ...(words as Array<{ kind: string; word: string; allowed: string }>).map(
    (word): [string, string] => [`word ${word.kind} ${word.word}`, word.allowed],
  ),
  ...displayModels({ seed: SEED, count: 100, fixtures: FIXTURES }).map(
    (model, i): [string, string] => [`model ${i}`, exportText(model)],
  ),
]

/** The refusal, if any, of `json` fetched with `tag`. */
function fetchedVerdict(json: string, tag: string) {
  return checkExportSafety(fetchedForm(json, tag), { tag })
}

describe('the placeholder: an accepted export is accepted as fetched, whatever the tag', () => {
  it('has accepted exports to fetch', () => {
    expect(ACCEPTED.length).toBeGreaterThan(250)
    for (const [name, json] of ACCEPTED)
      expect(checkExportSafety(json), name).toEqual({ safe: true })
  })

  const named = CHOSEN_TAGS.map((tag) => [
    tag.length > 20 ? `${tag.slice(0, 4)}… (${tag.length} characters)` : tag,
    tag,
  ])
  it.each(named)('accepts each of them fetched with tag=%s', (_, tag) => {
    for (const [name, json] of ACCEPTED) {
      expect(fetchedVerdict(json, tag!), name).toEqual({ safe: true })
    }
  })

  it('accepts each of them fetched with any tag the tag rules allow', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ACCEPTED), tagArb, ([name, json], tag) => {
        expect(fetchedVerdict(json, tag), `${name} with tag=${tag}`).toEqual({ safe: true })
      }),
      { seed: SEED, numRuns: 400 },
    )
  })

  it('gives the hostile exports it accepts the same verdict fetched with every chosen tag', () => {
    const differ: string[] = []
    for (const hostile of hostileExports({ seed: SEED, count: 5000, fixtures: FIXTURES })) {
      if (!checkExportSafety(hostile.json).safe) continue
      for (const tag of new Set([...hostile.fetchTags, ...CHOSEN_TAGS])) {
        const fetched = fetchedVerdict(hostile.json, tag)
        if (!fetched.safe)
          differ.push(
            `${hostile.id} ${hostile.kind} ${hostile.position} tag=${tag}: ${fetched.reason} ${fetched.found}`,
          )
      }
    }
    expect(differ.slice(0, 20), `${differ.length} accepted published, refused fetched`).toEqual([])
  })
})
