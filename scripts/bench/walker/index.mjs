/**
 * The `walker` section: substitution throughput of the tag walker and its variants, in Node (a
 * child process, walker/node.mjs) and inside workerd (walker-worker.ts), on the fixtures and
 * two synthetic 20 MB exports. Figures: `walkerNode`, `walkerWorkerd`.
 */
import { walkerInWorkerd } from './in-workerd.mjs'
import { walkerRows } from './rows.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function walkerSection(bench) {
  const config = bench.config.walker
  return {
    name: 'walker',
    bundles: { workers: [new URL('./walker-worker.ts', import.meta.url)] },
    workers: ({ worker }) => [worker('walker', 'walker-worker.js', {})],
    async before() {
      bench.log('walker in Node')
      return {
        walkerNode: bench.nodeJson(new URL('./node.mjs', import.meta.url), [], {
          casesModule: bench.casesModule,
          inputs: bench.walkerInputs,
          rounds: config.rounds,
          minBatchMs: config.nodeBatchMs,
        }),
      }
    },
    async during({ urls }) {
      bench.log('walker in workerd')
      return {
        walkerWorkerd: await walkerInWorkerd(urls.walker, {
          cases: bench.cases,
          inputs: bench.walkerInputs,
          rounds: config.rounds,
          batchMs: config.workerdBatchMs,
        }),
      }
    },
    rows: [walkerRows],
  }
}
