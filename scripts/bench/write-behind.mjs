/**
 * The rate limiter's storage bill (issue 13), for `npm run bench`: row writes per retrieval at
 * sustained load, counted in the `writes` Worker (write-count-worker.ts) for the limiter and for
 * the design before it (write-through-limiter.ts), and the cost of a retrieval in dollars per
 * million from the operations counted in the run. docs/performance.md describes the model.
 */
import { row, verdict } from './rows.mjs'
import { getJson } from './service-calls.mjs'

/** Workers Paid list prices, dollars per million. */
export const PRICES = {
  workerRequests: 0.3,
  workerCpuMs: 0.02,
  durableObjectRequests: 0.15,
  kvReads: 0.5,
  rowsWritten: 1.0,
}
/** The cost target: dollars per million retrievals. */
export const COST_TARGET = 1.1
/** The row-writes target: rows written per retrieval. */
export const ROWS_TARGET = 0.1
/** A GET of a live export reads KV once (`getWithMetadata` as a stream, src/storage/export-store.ts). */
const KV_READS_PER_GET = 1

/** The Worker, its bindings and settings, for the bench's one workerd. */
export function writeCountWorker(worker, vars) {
  return worker('writes', 'write-count-worker.js', {
    durableObjects: {
      WRITE_BEHIND: { className: 'CountedWriteBehind', useSQLite: true },
      WRITE_THROUGH: { className: 'CountedWriteThrough', useSQLite: true },
    },
    bindings: vars,
  })
}

/**
 * Drives the sustained loads and counts their writes. One client at 2 requests a second for
 * `seconds`, with the limiter and with the design before (at once: they are light); then 1,024
 * clients at the same rate with the limiter, and the design before for a third of the time (it
 * writes on every request, whatever the time). After each phase it waits two flush intervals
 * and a second, so the last counts are written and the last alarm has handed over to the
 * cleanup: every write the load causes is counted, except the cleanup itself, an hour later
 * (one `deleteAll` per client, added by `rowWrites`).
 */
export async function sustainedWrites(base, { seconds, flushSeconds, log }) {
  const settle = () => sleep((2 * flushSeconds + 1) * 1000)
  const run = async (design, label, clients, secs) => {
    const query = `design=${design}&case=${label}&clients=${clients}&rate=2&seconds=${secs}`
    const load = await getJson(`${base}/sustained?${query}`)
    return { design, label, clients, rate: 2, seconds: secs, load }
  }
  log(`row writes: 1 client at 2 req/s for ${seconds} s, both designs`)
  const phases = [
    await Promise.all([
      run('write-behind', 'after-1', 1, seconds),
      run('write-through', 'before-1', 1, seconds),
    ]),
  ]
  await settle()
  log(`row writes: 1,024 clients at 2 req/s for ${seconds} s`)
  phases.push([await run('write-behind', 'after-1024', 1024, seconds)])
  await settle()
  const shorter = Math.max(5, Math.round(seconds / 3))
  log(`row writes: 1,024 clients at 2 req/s for ${shorter} s, the design before`)
  phases.push([await run('write-through', 'before-1024', 1024, shorter)])
  await settle()
  const cases = []
  for (const c of phases.flat()) {
    const counts = await getJson(`${base}/counts?case=${c.label}`)
    cases.push({ ...c, counts, ...rowWrites(c.load, counts, c.clients) })
  }
  return { flushSeconds, cases }
}

/** Row writes per retrieval, and Durable Object requests (calls and alarms) per retrieval. */
function rowWrites(load, counts, clients) {
  const cleanup = clients
  const rows = counts.put + counts.setAlarm + counts.deleteAll + counts.delete + cleanup
  return {
    rows,
    rowsPerRetrieval: rows / load.admitted,
    doRequestsPerRetrieval: (load.hits + counts.alarms) / load.admitted,
  }
}

/**
 * Dollars per million retrievals (GET of a live export): one Worker request, the workerd CPU
 * the request path used per GET in the run, the Durable Object calls and alarms, one KV read
 * and the rows written, at the list prices.
 */
export function costPerMillion({ cpuMicros, doRequestsPerRetrieval, rowsPerRetrieval }) {
  const parts = {
    workerRequests: PRICES.workerRequests,
    workerCpu: (cpuMicros / 1000) * PRICES.workerCpuMs,
    durableObjectRequests: doRequestsPerRetrieval * PRICES.durableObjectRequests,
    kvReads: KV_READS_PER_GET * PRICES.kvReads,
    rowsWritten: rowsPerRetrieval * PRICES.rowsWritten,
  }
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), parts }
}

/** The table rows of the write-behind figures. */
export function writeBehindRows(r) {
  if (!r.writes) return []
  const rows = []
  const find = (label) => r.writes.cases.find((c) => c.label === label)
  const perRetrieval = (c) =>
    `${c.rowsPerRetrieval.toFixed(3)} (${c.rows.toLocaleString('en-US')} rows / ` +
    `${c.load.admitted.toLocaleString('en-US')} retrievals, ${c.load.seconds.toFixed(0)} s, ` +
    `driver late p50 ${(c.load.lateMs / 1000).toFixed(1)} s)`
  for (const [after, before, what] of [
    ['after-1', 'before-1', '1 client at 2 req/s'],
    ['after-1024', 'before-1024', '1,024 clients at 2 req/s each'],
  ]) {
    const a = find(after)
    const b = find(before)
    rows.push(
      row(
        'limiter',
        `row writes per retrieval, ${what}`,
        perRetrieval(a),
        `before write-behind: ${perRetrieval(b)}`,
        a.rowsPerRetrieval / b.rowsPerRetrieval,
        `<= ${ROWS_TARGET}`,
        verdict(a.rowsPerRetrieval <= ROWS_TARGET),
      ),
    )
  }
  // The physical limit of an alarm-driven flush: while a client keeps calling, each interval
  // costs a write and the `setAlarm` that brings the alarm back (docs/performance.md).
  const rate = find('after-1').rate
  const floor = 2 / (r.writes.flushSeconds * rate)
  rows.push(
    row(
      'limiter',
      `row writes per retrieval, floor of a flush every ${r.writes.flushSeconds} s at ${rate} req/s`,
      `${floor.toFixed(3)} (a write and a setAlarm per interval, 2 / (${r.writes.flushSeconds} x ${rate}))`,
      `measured, 1 client: ${find('after-1').rowsPerRetrieval.toFixed(3)}`,
      floor / find('after-1').rowsPerRetrieval,
      `<= ${ROWS_TARGET}`,
      verdict(floor <= ROWS_TARGET),
    ),
  )
  const get = r.http?.summary?.GET
  const getBefore = r.http?.summary?.['GET before']
  if (!get || !getBefore) return rows
  for (const [after, before, what] of [
    ['after-1', 'before-1', '1 client at 2 req/s'],
    ['after-1024', 'before-1024', '1,024 clients'],
  ]) {
    const a = costPerMillion({ cpuMicros: get.cpuMicros, ...find(after) })
    const b = costPerMillion({ cpuMicros: getBefore.cpuMicros, ...find(before) })
    const dollars = (cost) =>
      `$${cost.total.toFixed(3)}/M (CPU $${cost.parts.workerCpu.toFixed(3)}, ` +
      `DO $${cost.parts.durableObjectRequests.toFixed(3)}, rows $${cost.parts.rowsWritten.toFixed(3)})`
    rows.push(
      row(
        'limiter',
        `cost per million retrievals (GET), rows of ${what}`,
        dollars(a),
        `before write-behind: ${dollars(b)}`,
        a.total / b.total,
        `<= $${COST_TARGET.toFixed(2)}/M`,
        verdict(a.total <= COST_TARGET),
      ),
    )
  }
  // The same model with the rows at their floor and one alarm invocation per interval: the
  // least this design can cost with the CPU measured in this run.
  const atFloor = costPerMillion({
    cpuMicros: get.cpuMicros,
    doRequestsPerRetrieval: 1 + floor / 2,
    rowsPerRetrieval: floor,
  })
  const measured = costPerMillion({ cpuMicros: get.cpuMicros, ...find('after-1') })
  rows.push(
    row(
      'limiter',
      'cost per million retrievals (GET), rows at their floor',
      `$${atFloor.total.toFixed(3)}/M (of which Worker request, DO call and KV read: ` +
        `$${(PRICES.workerRequests + PRICES.durableObjectRequests + PRICES.kvReads).toFixed(2)})`,
      `measured, 1 client: $${measured.total.toFixed(3)}/M`,
      atFloor.total / measured.total,
      `<= $${COST_TARGET.toFixed(2)}/M`,
      verdict(atFloor.total <= COST_TARGET),
    ),
  )
  return rows
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
