/**
 * The rate limiter's bill, for `npm run bench`: row writes and Durable Object requests per
 * retrieval, counted in the `writes` Worker (write-count-worker.ts), for busy clients at
 * sustained load and for one-off clients over the whole life of their objects; the bytes their
 * objects still store once every window has lapsed, read from the SQLite files; and the cost of
 * a retrieval in dollars per million over 1 and 12 months of a steady stream of new addresses,
 * storage included. docs/performance.md describes the model.
 */
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { row, verdict } from '../lib/rows.mjs'
import { getJson } from '../lib/service-calls.mjs'

/** Workers Paid list prices, dollars per million (storage: dollars per GB-month). */
export const PRICES = {
  workerRequests: 0.3,
  workerCpuMs: 0.02,
  durableObjectRequests: 0.15,
  kvReads: 0.5,
  rowsWritten: 1.0,
  storageGbMonth: 0.2,
}
/** Parts of a retrieval's cost that are the same whatever the limiter does: left out of targets. */
const SAME_IN_EVERY_DESIGN = ['workerRequests', 'kvReads']
/** The horizons of the cost model: months of a steady stream of new addresses. */
const HORIZONS = [1, 12]
const HOURS_PER_MONTH = 730
/**
 * The size of an object that stores anything, where none was left to measure: Cloudflare's
 * figure for an SQLite database, 12 KB; measured here, a limiter object after one request
 * (three pages: the table, its row, the alarm's table).
 */
const DOCUMENTED_OBJECT_BYTES = 12_288
/**
 * How long an object that wrote and then deleted its storage held it, in production: its long
 * window (`RATE_LIMIT_LONG`, an hour by default) and at most an hour more, the bound of
 * docs/security.md#what-the-rate-limiter-keeps. Only used when nothing was left stored.
 */
const TRANSIENT_LIFE_HOURS = 2
/** Busy clients, today: 0.125 rows per retrieval and $1.14 per million, all parts included. */
const BUSY_TODAY = { rows: 0.125, costAllIn: 1.14 }
/** One-off clients of one request, over 12 months, in the limiter's own parts. */
const ONE_OFF_COST_TARGETS = { nothingWritten: 0.2, otherwise: 2.1 }
/** Clients of three requests: rows per retrieval, at most. */
const THREE_REQUEST_ROWS_TARGET = 1.0
/** A GET of a live export reads KV once (`getWithMetadata` as a stream, src/storage/export-store.ts). */
const KV_READS_PER_GET = 1
/**
 * The windows of the one-off clients: those of docs/api.md#rate-limits, the long one shortened
 * from an hour to a minute, so that the life of their objects (every window lapsed, every alarm
 * fired) fits in the run.
 */
const ONE_OFF_WINDOWS = { short: '120/60', long: '1200/60' }
/** Busy clients' windows: limits they never reach, a minute long, so that they lapse in the run. */
const BUSY_WINDOWS = { short: '999999999/60', long: '999999999/60' }
/** The one-off cases: new addresses, each making `requests` requests `gapMs` apart. */
const ONE_OFF_CASES = [
  { label: 'one-off-1', requests: 1, gapMs: 0, what: '1 request each' },
  { label: 'one-off-3-burst', requests: 3, gapMs: 1_000, what: '3 requests 1 s apart' },
  { label: 'one-off-3-spread', requests: 3, gapMs: 20_000, what: '3 requests 20 s apart' },
]
const ONE_OFF_CLIENTS = 1000
/** New clients a second: a steady arrival, not 1,000 objects created in the same instant. */
const ONE_OFF_PER_SECOND = 100
/** The class of the `writes` Worker's objects: the name of their folder of SQLite files. */
const COUNTED_CLASS = 'CountedWriteBehind'

/** The Worker, its bindings and settings, for the bench's one workerd. */
export function writeCountWorker(worker, vars) {
  return worker('writes', 'write-count-worker.js', {
    durableObjects: { WRITE_BEHIND: { className: COUNTED_CLASS, useSQLite: true } },
    bindings: vars,
  })
}

/**
 * Drives the loads and counts their writes. One client at 2 requests a second for `seconds`,
 * then 1,024 clients at the same rate, both under windows of a minute (`BUSY_WINDOWS`); beside
 * the first, the one-off clients: 1,000 new addresses per case, 100 arriving a second. Every
 * case is then left for the rest of its objects' life (the long window, a flush interval and two
 * seconds) before its writes are counted and its objects checked for an alarm still to come.
 * The objects' ids are kept (`objectIds`) for `measureStorage` once workerd has stopped.
 */
export async function sustainedWrites(base, { seconds, flushSeconds, log }) {
  const busyWindows = `short=${BUSY_WINDOWS.short}&long=${BUSY_WINDOWS.long}`
  const run = async (label, clients, secs) => {
    const query = `case=${label}&clients=${clients}&rate=2&seconds=${secs}&${busyWindows}`
    const load = await getJson(`${base}/sustained?${query}`)
    return { label, clients, rate: 2, seconds: secs, windows: BUSY_WINDOWS, load }
  }
  log(`one-off clients: ${ONE_OFF_CLIENTS} new addresses per case, over their objects' life`)
  const oneOffs = oneOffClients(base, flushSeconds)
  log(`row writes: 1 client at 2 req/s for ${seconds} s`)
  const phases = [await run('busy-1', 1, seconds)]
  // The one-off clients' requests must not wait behind 2,048 calls a second: their timing is
  // what decides when the limiter holds a request.
  const oneOff = await oneOffs
  log(`row writes: 1,024 clients at 2 req/s for ${seconds} s`)
  phases.push(await run('busy-1024', 1024, seconds))
  await sleep(lifeSeconds(BUSY_WINDOWS, flushSeconds) * 1000)
  const cases = []
  for (const c of phases) {
    const counts = await getJson(`${base}/counts?case=${c.label}`)
    const { pending } = await getJson(`${base}/pending?case=${c.label}&clients=${c.clients}`)
    await keepIds(base, c.label, c.clients)
    cases.push({ ...c, counts, pendingAlarms: pending, ...perRetrieval(c.load, counts) })
  }
  return { flushSeconds, cases, oneOff }
}

/** How long after its last request an object's life ends: its long window, a flush, 2 s. */
function lifeSeconds(windows, flushSeconds) {
  return Number(windows.long.split('/')[1]) + flushSeconds + 2
}

/** The ids of each case's objects, by case: the names of their SQLite files. */
const objectIds = new Map()

async function keepIds(base, label, clients) {
  const { ids } = await getJson(`${base}/ids?case=${label}&clients=${clients}`)
  objectIds.set(label, ids)
}

/** The one-off cases at once, each over the whole life of its objects. */
async function oneOffClients(base, flushSeconds) {
  const windows = `short=${ONE_OFF_WINDOWS.short}&long=${ONE_OFF_WINDOWS.long}`
  return Promise.all(
    ONE_OFF_CASES.map(async ({ label, requests, gapMs, what }) => {
      const query =
        `case=${label}&clients=${ONE_OFF_CLIENTS}&requests=${requests}&gapMs=${gapMs}` +
        `&perSecond=${ONE_OFF_PER_SECOND}`
      const load = await getJson(`${base}/one-off?${query}&${windows}`)
      await sleep(lifeSeconds(ONE_OFF_WINDOWS, flushSeconds) * 1000)
      const counts = await getJson(`${base}/counts?case=${label}`)
      const { pending } = await getJson(`${base}/pending?case=${label}&clients=${ONE_OFF_CLIENTS}`)
      await keepIds(base, label, ONE_OFF_CLIENTS)
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

/**
 * What the objects of every case still store, read from their SQLite files under `persistDir`
 * once workerd has stopped (Miniflare's `resourcePersistencePath`): each file's WAL checkpointed
 * into it, then its size. A database without a table is the empty one workerd leaves after a
 * `deleteAll` (or for an object that only read): it holds nothing, and counts 0 bytes. Adds
 * `stored: { objects, bytes, sizes }` to each case of `writes`.
 */
export async function measureStorage(writes, persistDir) {
  // node:sqlite: Node 22's, the one `npm run bench` runs on.
  const { DatabaseSync } = await import('node:sqlite')
  const folder = join(persistDir, 'do', `writes-${COUNTED_CLASS}`)
  for (const c of [...writes.cases, ...writes.oneOff]) {
    const sizes = []
    for (const id of objectIds.get(c.label) ?? []) {
      const file = join(folder, `${id}.sqlite`)
      if (!existsSync(file)) continue
      const db = new DatabaseSync(file)
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      const { tables } = db
        .prepare("SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table'")
        .get()
      db.close()
      if (tables > 0) sizes.push(statSync(file).size)
    }
    c.stored = {
      objects: sizes.length,
      bytes: sizes.reduce((a, b) => a + b, 0),
      sizes: [...new Set(sizes)].sort((a, b) => a - b),
    }
  }
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
 * reads, the rows written and `storageDollars` of stored data (`storagePerRetrieval`), at the
 * list prices. `total` is all of it; `own` leaves out the Worker request and the KV read, the
 * same in every design of the limiter: the part its targets are about.
 */
export function costPerMillion({
  cpuMicros,
  doRequestsPerRetrieval,
  rowsPerRetrieval,
  kvReads = KV_READS_PER_GET,
  storageDollars = 0,
}) {
  const parts = {
    workerRequests: PRICES.workerRequests,
    workerCpu: (cpuMicros / 1000) * PRICES.workerCpuMs,
    durableObjectRequests: doRequestsPerRetrieval * PRICES.durableObjectRequests,
    kvReads: kvReads * PRICES.kvReads,
    rowsWritten: rowsPerRetrieval * PRICES.rowsWritten,
    storage: storageDollars,
  }
  const sum = (names) => names.reduce((a, name) => a + parts[name], 0)
  const names = Object.keys(parts)
  return {
    total: sum(names),
    own: sum(names.filter((name) => !SAME_IN_EVERY_DESIGN.includes(name))),
    parts,
  }
}

/**
 * Dollars of stored data per million retrievals, over `months` of a steady stream of new
 * addresses that each behave as the case's clients did. An object stored from the first day of
 * the stream costs every month it stays: one kept forever by a client arriving at a uniform time
 * in the horizon stays `months / 2` on average; one deleted after `life` months stays
 * `life - life^2 / (2 * months)`. Objects still storing after their windows lapsed count as kept
 * forever, at their measured size; the rest of those that wrote anything count as deleted after
 * `TRANSIENT_LIFE_HOURS`, at the measured size or the documented 12 KB.
 */
export function storagePerMillion(c, months) {
  const stored = c.stored ?? { objects: 0, bytes: 0 }
  const written = Math.max(c.counts.written ?? 0, stored.objects)
  const kept = stored.objects
  const transient = written - kept
  const transientBytes = kept > 0 ? stored.bytes / kept : DOCUMENTED_OBJECT_BYTES
  const life = Math.min(TRANSIENT_LIFE_HOURS / HOURS_PER_MONTH, months)
  const gbMonths =
    (stored.bytes * (months / 2) + transient * transientBytes * (life - life ** 2 / (2 * months))) /
    1e9
  return (gbMonths * PRICES.storageGbMonth * 1e6) / c.load.admitted
}

/**
 * Busy clients' storage per million retrievals: one object each, the size it holds while the
 * client calls (the documented 12 KB), for as long as the client calls at its rate.
 */
function busyStoragePerMillion(c) {
  const retrievalsPerMonth = c.rate * HOURS_PER_MONTH * 3600
  return ((DOCUMENTED_OBJECT_BYTES / 1e9) * PRICES.storageGbMonth * 1e6) / retrievalsPerMonth
}

const dollars = (cost) =>
  `$${cost.own.toFixed(3)}/M (CPU $${cost.parts.workerCpu.toFixed(3)}, ` +
  `DO $${cost.parts.durableObjectRequests.toFixed(3)}, rows $${cost.parts.rowsWritten.toFixed(3)}, ` +
  `storage $${cost.parts.storage.toFixed(3)}; with Worker request and KV read $${cost.total.toFixed(2)})`

const bytesText = (stored) =>
  stored === undefined
    ? 'bytes not measured'
    : `${stored.bytes.toLocaleString('en-US')} B in ${stored.objects.toLocaleString('en-US')} objects`

/** The table rows of the write figures: one-off clients first, then busy ones. */
export function writeBehindRows(r) {
  if (!r.writes) return []
  const get = r.http?.summary?.GET
  return [...oneOffRows(r.writes, get), ...busyRows(r.writes, get), ...refusalRows(r)]
}

/**
 * One-off clients: rows, requests and the bytes left over their objects' whole life, then their
 * cost per million over each horizon.
 */
function oneOffRows(writes, get) {
  const rows = []
  for (const c of writes.oneOff ?? []) {
    const single = c.requests === 1
    const nothingLeft = c.stored?.bytes === 0
    const met = single
      ? nothingLeft && c.doRequestsPerRetrieval <= 1
      : nothingLeft && c.rowsPerRetrieval <= THREE_REQUEST_ROWS_TARGET
    rows.push(
      row(
        'limiter',
        `one-off clients, ${c.what}: rows and DO requests per retrieval, whole life ` +
          `(long window ${c.windows.long.split('/')[1]} s); bytes stored after the windows lapsed`,
        `${c.rowsPerRetrieval.toFixed(3)} rows, ${c.doRequestsPerRetrieval.toFixed(3)} DO requests; ` +
          `${bytesText(c.stored)} (${c.rows.toLocaleString('en-US')} rows, ` +
          `${c.counts.written.toLocaleString('en-US')} objects wrote, ${c.counts.alarms} alarms, ` +
          `${c.load.admitted.toLocaleString('en-US')} retrievals, ${c.pendingAlarms} alarms left)`,
        'floor of one exact call: 1 row, 1 DO request',
        c.rowsPerRetrieval,
        single
          ? '<= 1 DO request; 0 B after'
          : `<= ${THREE_REQUEST_ROWS_TARGET.toFixed(1)} row; 0 B after`,
        c.load.admitted === c.load.hits && c.pendingAlarms === 0 ? verdict(met) : 'FAIL',
      ),
    )
  }
  if (!get) return rows
  // The least a retrieval can cost the limiter: one call, nothing written, nothing stored.
  const inMemory = costPerMillion({
    cpuMicros: get.cpuMicros,
    doRequestsPerRetrieval: 1,
    rowsPerRetrieval: 0,
  })
  for (const c of writes.oneOff ?? []) {
    const costs = HORIZONS.map((months) =>
      costPerMillion({
        cpuMicros: get.cpuMicros,
        ...c,
        storageDollars: storagePerMillion(c, months),
      }),
    )
    const year = costs.at(-1)
    const single = c.requests === 1
    const nothingWritten = c.rows === 0
    const limit = nothingWritten
      ? ONE_OFF_COST_TARGETS.nothingWritten
      : ONE_OFF_COST_TARGETS.otherwise
    rows.push(
      row(
        'limiter',
        `cost per million retrievals (GET), one-off clients, ${c.what}, over ` +
          `${HORIZONS.join(' / ')} months of new addresses`,
        `${costs.map((cost) => `$${cost.own.toFixed(3)}`).join(' / ')}; 12 months: ${dollars(year)}`,
        `a call that writes nothing: ${dollars(inMemory)}`,
        year.own / inMemory.own,
        single
          ? nothingWritten
            ? `<= $${limit.toFixed(2)}/M (nothing written)`
            : `<= $${limit.toFixed(2)}/M, 0 B after`
          : '',
        single ? verdict(year.own <= limit && c.stored?.bytes === 0) : '',
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
    `driver late p50 ${(c.load.lateMs / 1000).toFixed(1)} s); after the windows: ` +
    `${bytesText(c.stored)}, ${c.pendingAlarms} alarms left`
  for (const [label, what] of [
    ['busy-1', '1 client at 2 req/s'],
    ['busy-1024', '1,024 clients at 2 req/s each'],
  ]) {
    const c = find(label)
    rows.push(
      row(
        'limiter',
        `row writes per retrieval, ${what}; bytes stored after the windows lapsed`,
        perRetrieval(c),
        floorText,
        c.rowsPerRetrieval / floor,
        `<= ${BUSY_TODAY.rows} (today); 0 B after`,
        verdict(c.rowsPerRetrieval <= BUSY_TODAY.rows && c.stored?.bytes === 0),
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
    storageDollars: busyStoragePerMillion(one),
  })
  // Today's all-in figure, less the parts every design pays, in the limiter's own parts.
  const target = BUSY_TODAY.costAllIn - (atFloor.total - atFloor.own)
  for (const [label, what] of [
    ['busy-1', '1 client at 2 req/s'],
    ['busy-1024', '1,024 clients'],
  ]) {
    const c = find(label)
    const cost = costPerMillion({
      cpuMicros: get.cpuMicros,
      ...c,
      storageDollars: busyStoragePerMillion(c),
    })
    rows.push(
      row(
        'limiter',
        `cost per million retrievals (GET), rows of ${what}, any month`,
        dollars(cost),
        `rows at their floor: ${dollars(atFloor)}`,
        cost.own / atFloor.own,
        `<= $${target.toFixed(2)}/M (today: $${BUSY_TODAY.costAllIn.toFixed(2)} with Worker request and KV read)`,
        verdict(cost.own <= target),
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
