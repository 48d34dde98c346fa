/**
 * The rate limiter's storage bill, for `npm run bench`: row writes and Durable Object requests
 * per retrieval, counted in the `writes` Worker (write-count-worker.ts), for busy clients at
 * sustained load and for one-off clients over the whole life of their objects; and the cost of
 * a retrieval in dollars per million from the operations counted in the run.
 * docs/performance.md describes the model.
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
/** The cost target of busy clients: dollars per million retrievals. */
export const COST_TARGET = 1.1
/** The row-writes target of busy clients: rows written per retrieval. */
export const ROWS_TARGET = 0.1
/** One-off clients: rows and Durable Object requests per retrieval, at most. */
const ONE_OFF_TARGET = 1.0
/** One-off clients of one request: their cost within this of the floor of one exact call. */
const ONE_OFF_COST_MARGIN = 1.05
/** A GET of a live export reads KV once (`getWithMetadata` as a stream, src/storage/export-store.ts). */
const KV_READS_PER_GET = 1
/**
 * The windows of the one-off clients: spec 8's, the long one shortened from an hour to a minute,
 * so that the life of their objects (every window lapsed, every alarm fired) fits in the run.
 */
const ONE_OFF_WINDOWS = { short: '120/60', long: '1200/60' }
/** The one-off cases: new addresses, each making `requests` requests `gapMs` apart. */
const ONE_OFF_CASES = [
  { label: 'one-off-1', requests: 1, gapMs: 0, what: '1 request each' },
  { label: 'one-off-3-burst', requests: 3, gapMs: 1_000, what: '3 requests 1 s apart' },
  { label: 'one-off-3-spread', requests: 3, gapMs: 20_000, what: '3 requests 20 s apart' },
]
const ONE_OFF_CLIENTS = 1000
/** New clients a second: a steady arrival, not 1,000 objects created in the same instant. */
const ONE_OFF_PER_SECOND = 100

/** The Worker, its bindings and settings, for the bench's one workerd. */
export function writeCountWorker(worker, vars) {
  return worker('writes', 'write-count-worker.js', {
    durableObjects: { WRITE_BEHIND: { className: 'CountedWriteBehind', useSQLite: true } },
    bindings: vars,
  })
}

/**
 * Drives the loads and counts their writes. One client at 2 requests a second for `seconds`,
 * then 1,024 clients at the same rate; after each it waits two flush intervals and a second, so
 * the last counts are written and the last alarm has fired. Beside the first, the one-off clients:
 * 1,000 new addresses per case, 100 arriving a second, then the rest of their objects' life (the
 * long window, a flush interval and two seconds), and a check that no alarm is left to come.
 */
export async function sustainedWrites(base, { seconds, flushSeconds, log }) {
  const settle = () => sleep((2 * flushSeconds + 1) * 1000)
  const run = async (label, clients, secs) => {
    const query = `case=${label}&clients=${clients}&rate=2&seconds=${secs}`
    const load = await getJson(`${base}/sustained?${query}`)
    return { label, clients, rate: 2, seconds: secs, load }
  }
  log(`one-off clients: ${ONE_OFF_CLIENTS} new addresses per case, over their objects' life`)
  const oneOffs = oneOffClients(base, flushSeconds)
  log(`row writes: 1 client at 2 req/s for ${seconds} s`)
  const phases = [await run('busy-1', 1, seconds)]
  await settle()
  // The one-off clients' requests must not wait behind 2,048 calls a second: their timing is
  // what decides when the limiter holds a request.
  const oneOff = await oneOffs
  log(`row writes: 1,024 clients at 2 req/s for ${seconds} s`)
  phases.push(await run('busy-1024', 1024, seconds))
  await settle()
  const cases = []
  for (const c of phases) {
    const counts = await getJson(`${base}/counts?case=${c.label}`)
    cases.push({ ...c, counts, ...perRetrieval(c.load, counts) })
  }
  return { flushSeconds, cases, oneOff }
}

/** The one-off cases at once, each over the whole life of its objects. */
async function oneOffClients(base, flushSeconds) {
  const windows = `short=${ONE_OFF_WINDOWS.short}&long=${ONE_OFF_WINDOWS.long}`
  const longSeconds = Number(ONE_OFF_WINDOWS.long.split('/')[1])
  return Promise.all(
    ONE_OFF_CASES.map(async ({ label, requests, gapMs, what }) => {
      const query =
        `case=${label}&clients=${ONE_OFF_CLIENTS}&requests=${requests}&gapMs=${gapMs}` +
        `&perSecond=${ONE_OFF_PER_SECOND}`
      const load = await getJson(`${base}/one-off?${query}&${windows}`)
      await sleep((longSeconds + flushSeconds + 2) * 1000)
      const counts = await getJson(`${base}/counts?case=${label}`)
      const { pending } = await getJson(`${base}/pending?case=${label}&clients=${ONE_OFF_CLIENTS}`)
      return {
        label,
        what,
        clients: ONE_OFF_CLIENTS,
        requests,
        gapMs,
        windows: ONE_OFF_WINDOWS,
        load,
        counts,
        pendingAlarms: pending,
        ...perRetrieval(load, counts),
      }
    }),
  )
}

/** Row writes per retrieval, and Durable Object requests (calls and alarms) per retrieval. */
function perRetrieval(load, counts) {
  const rows = counts.put + counts.setAlarm + counts.deleteAll + counts.delete
  return {
    rows,
    rowsPerRetrieval: rows / load.admitted,
    doRequests: load.hits + counts.alarms,
    doRequestsPerRetrieval: (load.hits + counts.alarms) / load.admitted,
  }
}

/**
 * Dollars per million retrievals (GET of a live export): one Worker request, the workerd CPU
 * the request path used per GET in the run, the Durable Object calls and alarms, `kvReads` KV
 * reads and the rows written, at the list prices.
 */
export function costPerMillion({
  cpuMicros,
  doRequestsPerRetrieval,
  rowsPerRetrieval,
  kvReads = KV_READS_PER_GET,
}) {
  const parts = {
    workerRequests: PRICES.workerRequests,
    workerCpu: (cpuMicros / 1000) * PRICES.workerCpuMs,
    durableObjectRequests: doRequestsPerRetrieval * PRICES.durableObjectRequests,
    kvReads: kvReads * PRICES.kvReads,
    rowsWritten: rowsPerRetrieval * PRICES.rowsWritten,
  }
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), parts }
}

const dollars = (cost) =>
  `$${cost.total.toFixed(3)}/M (CPU $${cost.parts.workerCpu.toFixed(3)}, ` +
  `DO $${cost.parts.durableObjectRequests.toFixed(3)}, rows $${cost.parts.rowsWritten.toFixed(3)})`

/** The table rows of the write figures: one-off clients first, then busy ones. */
export function writeBehindRows(r) {
  if (!r.writes) return []
  const get = r.http?.summary?.GET
  return [...oneOffRows(r.writes, get), ...busyRows(r.writes, get), ...refusalRows(r)]
}

/** One-off clients: rows and requests over their objects' whole life, and their cost. */
function oneOffRows(writes, get) {
  const rows = []
  // The floor of an exact count: one call to the object, and the one write of its count.
  const floor = { doRequestsPerRetrieval: 1, rowsPerRetrieval: 1 }
  for (const c of writes.oneOff ?? []) {
    const single = c.requests === 1
    const met =
      c.rowsPerRetrieval <= ONE_OFF_TARGET &&
      (!single || c.doRequestsPerRetrieval <= ONE_OFF_TARGET)
    rows.push(
      row(
        'limiter',
        `one-off clients, ${c.what}: row writes and DO requests per retrieval, whole life ` +
          `(long window ${c.windows.long.split('/')[1]} s)`,
        `${c.rowsPerRetrieval.toFixed(3)} rows, ${c.doRequestsPerRetrieval.toFixed(3)} DO requests ` +
          `(${c.rows.toLocaleString('en-US')} rows, ${c.counts.alarms} alarms, ` +
          `${c.load.admitted.toLocaleString('en-US')} retrievals, ${c.pendingAlarms} alarms left)`,
        'floor of one exact call: 1 row, 1 DO request',
        c.rowsPerRetrieval,
        single
          ? `<= ${ONE_OFF_TARGET.toFixed(1)} row and DO request`
          : `<= ${ONE_OFF_TARGET.toFixed(1)} row`,
        c.load.admitted === c.load.hits && c.pendingAlarms === 0 ? verdict(met) : 'FAIL',
      ),
    )
  }
  if (!get) return rows
  const atFloor = costPerMillion({ cpuMicros: get.cpuMicros, ...floor })
  for (const c of writes.oneOff ?? []) {
    const cost = costPerMillion({ cpuMicros: get.cpuMicros, ...c })
    const single = c.requests === 1
    rows.push(
      row(
        'limiter',
        `cost per million retrievals (GET), one-off clients, ${c.what}`,
        dollars(cost),
        `floor of one exact call and one row: ${dollars(atFloor)}`,
        cost.total / atFloor.total,
        single ? `<= ${ONE_OFF_COST_MARGIN.toFixed(2)}x` : '',
        single ? verdict(cost.total <= atFloor.total * ONE_OFF_COST_MARGIN) : '',
      ),
    )
  }
  return rows
}

/** Busy clients: rows per retrieval against the floor of a flush per interval, and the cost. */
function busyRows(writes, get) {
  const rows = []
  const find = (label) => writes.cases.find((c) => c.label === label)
  const one = find('busy-1')
  // The physical limit of an alarm-driven flush: while a client keeps calling, each interval
  // costs a write and the `setAlarm` that brings the alarm back (docs/performance.md).
  const floor = 2 / (writes.flushSeconds * one.rate)
  const floorText = `floor of a flush every ${writes.flushSeconds} s: ${floor.toFixed(3)}`
  const perRetrieval = (c) =>
    `${c.rowsPerRetrieval.toFixed(3)} (${c.rows.toLocaleString('en-US')} rows / ` +
    `${c.load.admitted.toLocaleString('en-US')} retrievals, ${c.load.seconds.toFixed(0)} s, ` +
    `driver late p50 ${(c.load.lateMs / 1000).toFixed(1)} s)`
  for (const [label, what] of [
    ['busy-1', '1 client at 2 req/s'],
    ['busy-1024', '1,024 clients at 2 req/s each'],
  ]) {
    const c = find(label)
    rows.push(
      row(
        'limiter',
        `row writes per retrieval, ${what}`,
        perRetrieval(c),
        floorText,
        c.rowsPerRetrieval / floor,
        `<= ${ROWS_TARGET}`,
        verdict(c.rowsPerRetrieval <= ROWS_TARGET),
      ),
    )
  }
  if (!get) return rows
  // The same model with the rows at their floor and one alarm invocation per interval: the
  // least this design can cost with the CPU measured in this run.
  const atFloor = costPerMillion({
    cpuMicros: get.cpuMicros,
    doRequestsPerRetrieval: 1 + floor / 2,
    rowsPerRetrieval: floor,
  })
  for (const [label, what] of [
    ['busy-1', '1 client at 2 req/s'],
    ['busy-1024', '1,024 clients'],
  ]) {
    const cost = costPerMillion({ cpuMicros: get.cpuMicros, ...find(label) })
    rows.push(
      row(
        'limiter',
        `cost per million retrievals (GET), rows of ${what}`,
        dollars(cost),
        `rows at their floor: ${dollars(atFloor)}`,
        cost.total / atFloor.total,
        `<= $${COST_TARGET.toFixed(2)}/M`,
        verdict(cost.total <= COST_TARGET),
      ),
    )
  }
  return rows
}

/**
 * A refusal the limiter's object gives has had a KV read started beside it, dropped unused; a
 * refusal the isolate remembers starts nothing. CPU of the request section's 429 case.
 */
function refusalRows(r) {
  const refused = r.http?.summary?.[429]
  if (!refused) return []
  const remembered = costPerMillion({
    cpuMicros: refused.cpuMicros,
    doRequestsPerRetrieval: 0,
    rowsPerRetrieval: 0,
    kvReads: 0,
  })
  const byObject = costPerMillion({
    cpuMicros: refused.cpuMicros,
    doRequestsPerRetrieval: 1,
    rowsPerRetrieval: 0,
    kvReads: 1,
  })
  return [
    row(
      'limiter',
      'cost per million 429s refused by the object (a KV read started beside the call, dropped)',
      `$${byObject.total.toFixed(3)}/M (KV read wasted: $${byObject.parts.kvReads.toFixed(2)})`,
      `refusal remembered in the isolate (nothing started): $${remembered.total.toFixed(3)}/M`,
      byObject.total / remembered.total,
    ),
  ]
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
