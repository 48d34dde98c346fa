import { describe, expect, it } from 'vitest'
import { checkExportSafety } from '../../src/export-safety'
import { FIXTURES } from '../support/fixtures'
import { VERSION_KINDS, versionHostileExports } from '../support/version-hostile-exports'

/**
 * The per-version typing and the text rules on generated exports: a click event in any text, a
 * string style flag where the declared version's codec fails on it, an item in a form the
 * declared version does not read (test/support/version-hostile-exports.ts). Each is refused for
 * what it holds, and its twin, written as the declared version reads it, publishes.
 */

const SEED = 48
const COUNT = 1500

describe('the hostile generator of versions and texts', () => {
  const cases = versionHostileExports({ seed: SEED, count: COUNT, fixtures: FIXTURES })

  it('puts every kind at every place, in versions from 1.19.4 to 1.21.x', () => {
    expect(cases).toHaveLength(COUNT)
    const seen = new Set(cases.map((c) => `${c.kind} ${c.place}`))
    for (const kind of VERSION_KINDS) {
      for (const place of ['passenger', 'nested-passenger', 'frame']) {
        expect(seen, `${kind} in a ${place}`).toContain(`${kind} ${place}`)
      }
    }
    const versions = new Set(cases.map((c) => c.version))
    for (const version of ['1.19.4', '1.20.4', '1.20.5', '1.21.4', '1.21.5']) {
      expect(versions).toContain(version)
    }
    expect(versionHostileExports({ seed: SEED, count: 30, fixtures: FIXTURES })).toEqual(
      cases.slice(0, 30),
    )
  })

  it(`refuses each of ${COUNT} cases for what it holds, and publishes its twin`, () => {
    const wrong: string[] = []
    for (const hostile of cases) {
      const verdict = checkExportSafety(hostile.json)
      const got = verdict.safe ? 'safe' : `${verdict.reason} ${verdict.found}`
      const expected = `${hostile.expected.reason} ${hostile.expected.found}`
      if (got !== expected) wrong.push(`${hostile.id} ${hostile.kind} ${hostile.version}: ${got}`)
      const twin = checkExportSafety(hostile.twin)
      if (!twin.safe) wrong.push(`${hostile.id} twin ${hostile.version}: ${twin.found}`)
    }
    expect(wrong.slice(0, 20), `${wrong.length} cases`).toEqual([])
  })
})
