/**
 * The `adversarial` section: 24 MiB publishes built to be slow for the
 * display-model check (shapes.mjs), each timed against a benign 24 MiB display model in the same
 * run (timing.mjs, on the shared workerd's service; target at most 2x, median) and its memory
 * measured against a bare KV put of the same body (memory.mjs, a fresh workerd per figure, each
 * warmed by the same benign 2 MB publish; target: the KV put's growth plus the body plus one
 * growth step of V8's young generation, rows.mjs). Figures: `adversarial`.
 */
import { publishMemory } from './memory.mjs'
import { adversarialMemoryRows, adversarialTimeRows } from './rows.mjs'
import {
  ADVERSARIAL_SHAPES,
  BENIGN,
  BENIGN_OF,
  BENIGN_SMALL,
  benign,
  benignSmall,
} from './shapes.mjs'
import { timePublishes } from './timing.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function adversarialSection(bench) {
  let bodies = null
  const build = () => {
    bodies ??= {
      [BENIGN]: benign(),
      [BENIGN_SMALL]: benignSmall(),
      ...Object.fromEntries(Object.entries(ADVERSARIAL_SHAPES).map(([name, f]) => [name, f()])),
    }
    return bodies
  }
  const figures = {}
  return {
    name: 'adversarial',
    async before() {
      bench.log('adversarial publishes: building the 24 MiB shapes')
      figures.memory = await publishMemory({
        root: bench.root,
        buildDir: bench.buildDir,
        token: bench.token,
        highLimits: bench.highLimits,
        bodies: build(),
        warmUp: build()[BENIGN_SMALL],
        log: bench.log,
      })
      return {}
    },
    async during({ urls }) {
      figures.timing = await timePublishes({
        url: urls.service,
        token: bench.token,
        bodies: build(),
        benign: BENIGN,
        benignOf: BENIGN_OF,
        rounds: bench.quick ? 2 : 5,
        log: bench.log,
      })
      return { adversarial: figures }
    },
    rows: [adversarialTimeRows, adversarialMemoryRows],
  }
}
