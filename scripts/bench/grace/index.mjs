/**
 * The `grace` section: what the allocator's grace copy costs, publishing with and without it,
 * and reads from it against reads from KV (grace-copy.mjs, on its two Workers `lagged` and
 * `no-grace`). Figures: `grace`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { publishOnce } from '../lib/service-calls.mjs'
import { interleave, median, pairedRatio } from '../lib/stats.mjs'
import { graceCopyBench, graceCopyRows, graceCopyWorkers } from './grace-copy.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function graceSection(bench) {
  const { config, token } = bench
  return {
    name: 'grace',
    workers: ({ worker, vars, highLimits }) =>
      graceCopyWorkers(worker, { vars, bindings: { ...highLimits, PUBLISH_TOKEN: token } }),
    async during({ urls, runLoad }) {
      bench.log('grace copy')
      const fixture = readFileSync(join(bench.fixtures, `${config.publish.fixture}.json`))
      const large = bench.cases.syntheticExport('sparse', config.http.streamedBytes)
      const grace = await graceCopyBench({
        urls,
        runLoad,
        interleave,
        median,
        pairedRatio,
        publishOnce: (base, body) => publishOnce(base, body, token),
        tags: bench.tags,
        fixture,
        large,
        config: { ...config, publish: { ...config.publish, token } },
      })
      return { grace }
    },
    rows: [graceCopyRows],
  }
}
