/**
 * The `substitution` section: the throughput of the substitution engines and their variants, in Node (a
 * child process, substitution/node.mjs) and inside workerd (substitution-worker.ts), on the fixtures and
 * two synthetic 20 MB exports. Figures: `substitutionNode`, `substitutionWorkerd`.
 */
import { substitutionInWorkerd } from './in-workerd.mjs'
import { substitutionRows } from './rows.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function substitutionSection(bench) {
  const config = bench.config.substitution
  return {
    name: 'substitution',
    bundles: { workers: [new URL('./substitution-worker.ts', import.meta.url)] },
    workers: ({ worker }) => [worker('substitution', 'substitution-worker.js', {})],
    async before() {
      bench.log('substitution in Node')
      return {
        substitutionNode: bench.nodeJson(new URL('./node.mjs', import.meta.url), [], {
          casesModule: bench.casesModule,
          inputs: bench.substitutionInputs,
          rounds: config.rounds,
          minBatchMs: config.nodeBatchMs,
        }),
      }
    },
    async during({ urls }) {
      bench.log('substitution in workerd')
      return {
        substitutionWorkerd: await substitutionInWorkerd(urls.substitution, {
          cases: bench.cases,
          inputs: bench.substitutionInputs,
          rounds: config.rounds,
          batchMs: config.workerdBatchMs,
        }),
      }
    },
    rows: [substitutionRows],
  }
}
