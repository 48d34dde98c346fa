/**
 * A vitest reporter that says, per project, how many test files are done of its total and about
 * how long the rest will take, one line each time a file ends:
 *
 *   [progress] workers 12/61 files, 1m 40s in, about 6m 50s left
 *
 * The estimate is the project's time so far divided by its files done, times the files left: the
 * files of a project are alike enough, on average, for that to hold within a minute or two, and it
 * follows the machine's load as the run goes. It runs beside the default reporter and prints
 * nothing at the end, so that vitest's own summary stays the last lines (what CI reads).
 */

/** @typedef {import('vitest/node').Reporter} Reporter */
/** @typedef {import('vitest/node').TestModule} TestModule */
/** @typedef {import('vitest/node').TestSpecification} TestSpecification */
/** @typedef {import('vitest/node').Vitest} Vitest */

/**
 * @typedef {object} ProjectProgress
 * @property {number} total test files of the project in this run
 * @property {number} done test files ended
 * @property {number | undefined} startedAt when its first file was queued (ms)
 */

/** @implements {Reporter} */
export default class TestProgressReporter {
  /** @type {Map<string, ProjectProgress>} */
  #projects = new Map()
  /** @type {((line: string) => void) | undefined} */
  #print
  #now = () => Date.now()

  /**
   * @param {{ print?: (line: string) => void, now?: () => number }} [options] where lines go and
   *   the clock (for tests; by default vitest's logger, which keeps its live summary intact)
   */
  constructor(options = {}) {
    this.#print = options.print
    if (options.now) this.#now = options.now
  }

  /** @param {Vitest} vitest */
  onInit(vitest) {
    this.#print ??= (line) => vitest.logger.log(line)
  }

  /** @param {ReadonlyArray<TestSpecification>} specifications */
  onTestRunStart(specifications) {
    this.#projects.clear()
    for (const { project } of specifications) {
      const progress = this.#projects.get(project.name)
      if (progress) progress.total++
      else this.#projects.set(project.name, { total: 1, done: 0, startedAt: undefined })
    }
  }

  /** @param {TestModule} testModule */
  onTestModuleQueued(testModule) {
    const progress = this.#projects.get(testModule.project.name)
    if (progress && progress.startedAt === undefined) progress.startedAt = this.#now()
  }

  /** @param {TestModule} testModule */
  onTestModuleEnd(testModule) {
    const name = testModule.project.name
    const progress = this.#projects.get(name)
    if (!progress) return
    progress.done++
    progress.startedAt ??= this.#now()
    this.#print?.(progressLine(name, progress, this.#now() - progress.startedAt))
  }
}

/**
 * The line for `name` after a file ended, `elapsedMs` after its first file was queued.
 * @param {string} name
 * @param {{ total: number, done: number }} progress
 * @param {number} elapsedMs
 */
export function progressLine(name, { total, done }, elapsedMs) {
  const head = `[progress] ${name} ${done}/${total} files, ${duration(elapsedMs)} in`
  if (done >= total) return `${head}, done`
  return `${head}, about ${duration((elapsedMs / done) * (total - done))} left`
}

/**
 * `1m 05s`, `42s`: whole seconds, minutes past 60 s.
 * @param {number} ms
 */
function duration(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds}s`
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`
}
