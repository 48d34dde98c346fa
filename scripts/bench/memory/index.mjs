/**
 * The `memory` section: peak heap in Node while streaming an export through the splicer, the
 * JSON splicer and `replaceAll` (a child process per figure, memory/node.mjs), then peak RSS growth of
 * a fresh workerd per case (memory/workerd.mjs). Figures: `memory`, `memoryWorkerd`.
 */
import { memoryNodeRows } from './node-rows.mjs'
import { memoryRows, workerdMemory } from './workerd.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function memorySection(bench) {
  const config = bench.config.memory
  return {
    name: 'memory',
    async before() {
      bench.log('memory in Node')
      const memory = []
      for (const mode of ['splicer', 'jsonSplicer', 'replaceAll']) {
        for (const bytes of config.sizes) {
          memory.push(
            bench.nodeJson(new URL('./node.mjs', import.meta.url), ['--expose-gc'], {
              casesModule: bench.casesModule,
              mode,
              synthetic: config.synthetic,
              bytes,
            }),
          )
        }
      }
      const memoryWorkerd = await workerdMemory({
        root: bench.root,
        buildDir: bench.buildDir,
        log: bench.log,
      })
      return { memory, memoryWorkerd }
    },
    rows: [memoryNodeRows, memoryRows],
  }
}
