/**
 * The `adversarial` section: 24 MiB publishes built to be slow for the
 * display-model check (shapes.mjs), each timed against a benign 24 MiB display model in the same
 * run (timing.mjs, on the shared workerd's service; target at most 2x, median) and its memory
 * measured against a bare KV put of the same body (memory.mjs, a fresh workerd per figure, each
 * warmed by a publish of its shape in 2 MB; target: the KV put's growth plus the body plus one
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
  warmUpOf,
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
        warmUps: Object.fromEntries(Object.keys(build()).map((name) => [name, warmUpOf(name)])),
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
