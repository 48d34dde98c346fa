/**
 * What `npm run bench -- --save` keeps in docs/bench-latest.json (scripts/bench/lib/saved-run.mjs):
 * a whole run as it is; a run of some sections (`--only a,b --save`) only those sections' figures
 * and rows, over the saved copy, with the run each section comes from.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of the scripts, without types
import { savedCopy } from '../../scripts/bench/lib/saved-run.mjs'

interface Row {
  area: string
  case: string
  subject: string
}

const ORDER = ['request', 'limiter', 'harvest']

/** A run's results as run.mjs has them: figures by key, the machine, the rows. */
function run(startedAt: string, commit: string, figures: Record<string, unknown>, rows: Row[]) {
  return {
    startedAt,
    machine: {
      commit,
      uncommittedChanges: false,
      loadavgBefore: [1, 1, 1],
      loadavgAfter: [2, 2, 2],
    },
    config: { limiter: { calls: 400 } },
    seconds: 100,
    ...figures,
    rows,
  }
}

/** Rows computed from figures, as a section's row functions would: one per figure key run. */
function rowsOf(names: string[], figures: Record<string, unknown>): Row[] {
  return names.map((name) => ({ area: name, case: name, subject: String(figures[name]) }))
}

const whole = run('2026-11-28T03:59:51Z', 'old', { request: 'r1', limiter: 'l1', harvest: 'h1' }, [
  { area: 'request', case: 'request', subject: 'r1' },
  { area: 'limiter', case: 'RateLimiter.hit', subject: 'l1' },
  { area: 'harvest', case: 'harvest', subject: 'h1' },
])
const options = { only: null, quick: false }

describe('what --save keeps', () => {
  it('keeps a whole run as it is, with every section recorded from it', () => {
    const saved = savedCopy({
      run: whole,
      names: ORDER,
      seconds: { harvest: 40 },
      keys: {},
      order: ORDER,
      rowsOf,
      saved: null,
      options,
    })
    expect(saved.rows).toEqual(whole.rows)
    expect(saved.sections.harvest).toMatchObject({ commit: 'old', seconds: 40, runSeconds: 100 })
    expect(saved.sections.request.seconds).toBeNull()
  })

  it('replaces only the sections run: their figures, rows and record', () => {
    const saved = { ...whole, sections: undefined }
    const later = run('2026-12-06T10:43:00Z', 'new', { limiter: 'l2', harvest: 'h2' }, [])
    const copy = savedCopy({
      run: later,
      names: ['limiter', 'harvest'],
      seconds: { limiter: 300, harvest: 900 },
      keys: { limiter: ['limiter'], harvest: ['harvest'] },
      order: ORDER,
      rowsOf,
      saved,
      options: { only: ['harvest', 'limiter'], quick: false },
    })
    expect(copy.rows).toEqual([
      { area: 'request', case: 'request', subject: 'r1' },
      { area: 'limiter', case: 'limiter', subject: 'l2' },
      { area: 'harvest', case: 'harvest', subject: 'h2' },
    ])
    expect([copy.request, copy.limiter, copy.harvest]).toEqual(['r1', 'l2', 'h2'])
    expect([copy.startedAt, copy.seconds]).toEqual([whole.startedAt, whole.seconds])
    expect(copy.sections.harvest).toMatchObject({
      commit: 'new',
      seconds: 900,
      only: ['harvest', 'limiter'],
    })
    expect(copy.sections.request).toMatchObject({ commit: 'old', startedAt: whole.startedAt })
  })

  it('refuses a quick run of some sections', () => {
    expect(() =>
      savedCopy({
        run: whole,
        names: ['limiter'],
        seconds: {},
        keys: {},
        order: ORDER,
        rowsOf,
        saved: whole,
        options: { only: ['limiter'], quick: true },
      }),
    ).toThrow('--quick')
  })
})
