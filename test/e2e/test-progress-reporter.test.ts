/**
 * The progress line of `npm test` (scripts/test-progress-reporter.mjs): per project, files done of
 * its total and the time left at the pace so far, fed the events vitest sends it.
 */
import { describe, expect, it } from 'vitest'
import type { TestModule, TestSpecification } from 'vitest/node'
import TestProgressReporter, { progressLine } from '../../scripts/test-progress-reporter.mjs'

/** What the reporter reads of a file: its project's name. */
function file(project: string): TestModule & TestSpecification {
  return { project: { name: project } } as unknown as TestModule & TestSpecification
}

describe('the test progress reporter', () => {
  it('counts each project on its own and estimates from its own pace', () => {
    const lines: string[] = []
    let now = 0
    const reporter = new TestProgressReporter({ print: (line) => lines.push(line), now: () => now })
    const workers = [file('workers'), file('workers'), file('workers'), file('workers')]
    const e2e = [file('e2e'), file('e2e')]
    reporter.onTestRunStart([...workers, ...e2e])
    reporter.onTestModuleQueued(workers[0]!)
    now = 10_000
    reporter.onTestModuleQueued(e2e[0]!)
    reporter.onTestModuleEnd(workers[0]!)
    now = 100_000
    reporter.onTestModuleEnd(e2e[0]!)
    reporter.onTestModuleEnd(workers[1]!)
    expect(lines).toEqual([
      '[progress] workers 1/4 files, 10s in, about 30s left',
      '[progress] e2e 1/2 files, 1m 30s in, about 1m 30s left',
      '[progress] workers 2/4 files, 1m 40s in, about 1m 40s left',
    ])
  })

  it('says done when the last file of a project ends', () => {
    expect(progressLine('try-it', { total: 15, done: 15 }, 97_400)).toBe(
      '[progress] try-it 15/15 files, 1m 37s in, done',
    )
  })
})
