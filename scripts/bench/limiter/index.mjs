/**
 * The `limiter` section: the latency model (first GETs and HEADs with and without the limiter,
 * fixed waits added: latency.mjs), a limiter hit against a bare RPC and one write
 * (probe-costs.mjs), and the write-behind's rows, requests and bytes per retrieval
 * (write-behind.mjs; the bytes read from the objects' SQLite files once workerd has stopped).
 * Figures: `latency`, `limiter`, `writes`.
 */
import { latencyModel, latencyRows, latencyWorkers } from './latency.mjs'
import { limiterCost, limiterRows } from './probe-costs.mjs'
import {
  measureStorage,
  sustainedWrites,
  writeBehindRows,
  writeCountWorker,
} from './write-behind.mjs'

/** @type {import('../sections.mjs').SectionEntry} */
export function limiterSection(bench) {
  const config = bench.config.limiter
  const { delays } = bench
  return {
    name: 'limiter',
    bundles: {
      workers: [
        new URL('./write-count-worker.ts', import.meta.url),
        new URL('./latency-worker.ts', import.meta.url),
      ],
    },
    workers: ({ worker, vars, highLimits, flush }) => [
      writeCountWorker(worker, { ...vars, ...highLimits }),
      ...latencyWorkers(worker, { vars: { ...vars, ...highLimits, ...flush }, delays }),
    ],
    async during({ urls }) {
      bench.log('limiter')
      // The model times single requests: first, before the probe's objects have writes and
      // alarms to come, and after a pause in which the request section's last ones are done.
      await new Promise((resolve) => setTimeout(resolve, (bench.flushSeconds + 1) * 1000))
      bench.log(`latency model: limiter +${delays.limiterMs} ms, KV +${delays.kvMs} ms`)
      const latency = await latencyModel({
        urls,
        fixtures: bench.fixtures,
        token: bench.token,
        delays,
        requests: config.latencyRequests,
      })
      const limiter = await limiterCost(urls.probe, config)
      const writes = await sustainedWrites(urls.writes, {
        seconds: config.sustainedSeconds,
        flushSeconds: 9,
        log: bench.log,
      })
      return { latency, limiter, writes }
    },
    async after(results, storageDir) {
      if (results.writes) await measureStorage(results.writes, storageDir)
    },
    rows: [limiterRows, latencyRows, writeBehindRows],
  }
}
