/**
 * The `harvest` section: hours of guessing export IDs against the real Worker and its Durable
 * Objects in Miniflare, with simulated time (simulate.mjs; what is real and what is simulated:
 * README.md), mixed bursts from many networks of one block (mixed-bursts.mjs) and the plugins'
 * fetch patterns (plugin-patterns.mjs). It starts its own Miniflare before the shared workerd.
 * Figures: `harvest`.
 */
import { mixedBurstRows } from './burst-rows.mjs'
import { patternRows } from './pattern-rows.mjs'
import { harvestRows } from './rows.mjs'
import { harvestBench } from './simulate.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function harvestSection(bench) {
  return {
    name: 'harvest',
    async before() {
      const { root, buildDir, log } = bench
      return { harvest: await harvestBench({ root, buildDir, log }) }
    },
    rows: [harvestRows, mixedBurstRows, patternRows],
  }
}
