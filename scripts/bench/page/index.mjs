/**
 * The `page` section: the try-it page in Chromium against `npm start`'s service (its own
 * workerd, so it runs before the shared one starts). Figures: `page`.
 */
import { pageBench, pageRows } from './page.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function pageSection(bench) {
  return {
    name: 'page',
    async before() {
      bench.log('the try-it page')
      return {
        page: await pageBench({
          root: bench.root,
          rounds: bench.config.page.rounds,
          log: bench.log,
        }),
      }
    },
    rows: [pageRows],
  }
}
