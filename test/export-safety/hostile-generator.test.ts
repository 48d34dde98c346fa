import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/export-safety'
import { ALLOWED_VECTORS, REFUSED_VECTORS } from '../support/export-safety-vectors'
import { fetchedForm } from '../support/fetched-form'
import { FIXTURES } from '../support/fixtures'
import {
  HOSTILE_KINDS,
  displayModels,
  exportText,
  hostileDocuments,
  hostileExports,
  type HostileCase,
} from '../support/hostile-exports'
import { readingDifference } from '../support/hostile-readings'

/**
 * Hostile exports built from the fixtures, one hostile insertion each at a
 * value position the vocabulary allows (test/support/hostile-exports.ts), and the oracle that
 * says whether every plugin's reader reads an export as the game does (hostile-readings.ts).
 */

const SEED = 41
const COUNT = 5000

/** Why `hostile`, accepted, is not read the same (published or fetched), or null. */
function harm(hostile: HostileCase): string | null {
  const published = readingDifference(hostile.json)
  if (published !== null) return published
  for (const tag of hostile.fetchTags) {
    const fetched = readingDifference(fetchedForm(hostile.json, tag))
    if (fetched !== null) return `fetched with tag=${tag}: ${fetched}`
  }
  return null
}

describe('the hostile generator', () => {
  const cases = hostileExports({ seed: SEED, count: COUNT, fixtures: FIXTURES })

  it('builds display models that publish and read the same before any insertion', () => {
    const models = displayModels({ seed: SEED, count: 300, fixtures: FIXTURES })
    for (const model of models) {
      const json = exportText(model)
      expect(checkExportSafety(json)).toEqual({ safe: true })
      expect(readingDifference(json)).toBeNull()
    }
  })

  it('puts every kind at every place, plain and quoted, from every fixture', () => {
    expect(cases).toHaveLength(COUNT)
    const seen = new Set(cases.map((c) => `${c.kind} ${c.place}`))
    for (const kind of HOSTILE_KINDS) {
      for (const place of ['passenger', 'nested-passenger', 'frame', 'hitbox']) {
        expect(seen, `${kind} in a ${place}`).toContain(`${kind} ${place}`)
      }
    }
    expect(new Set(cases.map((c) => c.form))).toEqual(new Set(['plain', 'quoted']))
    expect(new Set(cases.map((c) => c.fixture))).toEqual(new Set(Object.keys(FIXTURES)))
    expect(new Set(cases.map((c) => c.id)).size).toBe(COUNT)
    expect(hostileExports({ seed: SEED, count: 50, fixtures: FIXTURES })).toEqual(
      cases.slice(0, 50),
    )
  })

  it('has an oracle that sees the attacks the readers were open to', () => {
    const split = REFUSED_VECTORS.find((v) => v.file === 'refused-reader-split-in-custom-name.json')
    expect(readingDifference(split!.text)).toMatch(/SuperBlocksDisplays/)
    for (const vector of ALLOWED_VECTORS)
      expect(readingDifference(vector.text), vector.file).toBeNull()
  })

  it('has harm in the cases a check must refuse: readers that cut, and 1.21.5 escapes', () => {
    const harm = (kind: string, versions?: Array<'1.21.4' | '1.21.5'>) =>
      cases.filter((c) => c.kind === kind).map((c) => readingDifference(c.json, versions) ?? '')
    expect(harm('split').some((why) => why.includes('SuperBlocksDisplays summons'))).toBe(true)
    expect(harm('passengers').some((why) => why.includes('sanscraft-bde summons'))).toBe(true)
    const escapes = harm('escape', ['1.21.5'])
    expect(escapes.some((why) => why.includes('the game reads selector text'))).toBe(true)
    expect(escapes.some((why) => why.includes('the game summons tnt'))).toBe(true)
  })

  it(`refuses each of ${COUNT} hostile exports, or every reader reads it as the game does`, () => {
    const harmful: string[] = []
    for (const hostile of cases) {
      if (!checkExportSafety(hostile.json).safe) continue
      const why = harm(hostile)
      if (why !== null) {
        harmful.push(`${hostile.id} ${hostile.kind} ${hostile.place} ${hostile.position}: ${why}`)
      }
    }
    expect(harmful.slice(0, 20), `${harmful.length} accepted and read differently`).toEqual([])
  })
})

describe('the hostile generator, on the document', () => {
  const cases = hostileDocuments({ seed: SEED, count: 520, fixtures: FIXTURES })

  it('puts members a reader acts on, and sizes, out of their bounds, on every fixture', () => {
    expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(['member', 'size']))
    expect(new Set(cases.map((c) => c.fixture))).toEqual(new Set(Object.keys(FIXTURES)))
    expect(new Set(cases.map((c) => c.what)).size).toBeGreaterThan(20)
  })

  it('refuses each one at the path of what was put', () => {
    for (const hostile of cases) {
      const verdict = checkExportSafety(hostile.json)
      expect(verdict.safe, `${hostile.id} ${hostile.what}`).toBe(false)
      if (!verdict.safe) expect(verdict.path, `${hostile.id} ${hostile.what}`).toBe(hostile.path)
    }
  })
})
