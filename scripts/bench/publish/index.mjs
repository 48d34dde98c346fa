/**
 * The `publish` section: publishes per second and CPU per publish over HTTP against a KV put of
 * the same bytes and against `EXPORT_POLICY=off` (publishing.mjs), then ID allocation in a nearly
 * full space against a nearly empty one (allocation.mjs, on the shared `probe` Workers).
 * Figures: `publish`, `alloc`.
 */
import { allocation, allocationRows } from './allocation.mjs'
import { publishing, publishingRows } from './publishing.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function publishSection(bench) {
  return {
    name: 'publish',
    async during({ urls, runLoad }) {
      bench.log('publishing')
      const publish = await publishing({
        urls,
        runLoad,
        fixtures: bench.fixtures,
        config: bench.config.publish,
        token: bench.token,
      })
      bench.log('ID allocation')
      return { publish, alloc: await allocation(urls, bench.config.alloc) }
    },
    rows: [publishingRows, allocationRows],
  }
}
