/**
 * The `request` section: GET, HEAD, 404, 429 and OPTIONS against the service and its baselines,
 * and the one-RPC floor (a limiter object without storage, memory-limiter-worker.ts). Its own
 * Workers: `no-limiter` and `no-storage`. Figures: `http`.
 */
import { requestPath } from './measure.mjs'
import { requestRows } from './rows.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function requestSection(bench) {
  return {
    name: 'request',
    bundles: {
      workers: [
        new URL('./no-limiter-worker.ts', import.meta.url),
        new URL('./memory-limiter-worker.ts', import.meta.url),
      ],
    },
    workers: ({ worker, vars, highLimits, flush, exports }) => [
      worker('no-limiter', 'no-limiter-worker.js', {
        kvNamespaces: exports,
        durableObjects: {
          ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
        },
        bindings: vars,
      }),
      worker('no-storage', 'memory-limiter-worker.js', {
        kvNamespaces: exports,
        durableObjects: {
          RATE_LIMITER: { className: 'MemoryOnlyLimiter', useSQLite: true },
          ID_ALLOCATOR: { className: 'IdAllocator', scriptName: 'service', useSQLite: true },
        },
        bindings: { ...vars, ...highLimits, ...flush },
      }),
    ],
    async during({ urls, runLoad }) {
      bench.log('request path')
      return {
        http: await requestPath({
          urls,
          runLoad,
          cases: bench.cases,
          fixtures: bench.fixtures,
          tags: bench.tags,
          config: bench.config.http,
          token: bench.token,
        }),
      }
    },
    rows: [requestRows],
  }
}
