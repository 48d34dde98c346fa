// Types of test-progress-reporter.mjs, for its test.
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node'

export default class TestProgressReporter implements Reporter {
  constructor(options?: { print?: (line: string) => void; now?: () => number })
  onInit(vitest: Vitest): void
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void
  onTestModuleQueued(testModule: TestModule): void
  onTestModuleEnd(testModule: TestModule): void
}

export function progressLine(
  name: string,
  progress: { total: number; done: number },
  elapsedMs: number,
): string
