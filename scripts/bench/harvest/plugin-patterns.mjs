/**
 * The real plugins' fetch patterns replayed through the Worker, each against the same requests
 * sent one at a time in the same run (callers.mjs), and a plugin server beside a neighbour
 * flooding its network with hits, against the same server without the flood:
 * - sanscraft-bde's chunk load: one request per placed custom block, all at once, unbounded;
 * - BlockDisplayCreator's startup: every model one after another, a new connection each (the
 *   requests go to the isolates in turn), several servers of one /24 restarting together;
 * - the Java client (clients/java) asked for 100 models at once, with its default settings;
 * - a neighbour sending only hits, thousands at once, from the /64s of the server's /48 or the
 *   addresses of its /24.
 */
import { SIXTY_FOURS_PER_48 } from './attackers.mjs'
import { atOnce, caller, oneAfterAnother } from './callers.mjs'

/** Placed blocks a chunk load fetches at once: up to the short window (120/60). */
export const CHUNK_SIZES = [30, 60, 120]
/** BlockDisplayCreator: servers of one /24 restarting together, models each. */
export const STARTUP_SERVERS = 5
export const STARTUP_MODELS = 100
/** A blocking fetch on a new connection, one after another, in ms of simulated time. */
const REQUEST_MS = 100
/** The Java client: models asked for at once. */
export const JAVA_MODELS = 100
/**
 * The Java client's default total wait on `Retry-After` per call (ExportClient.Builder's
 * `maxRetryWait`, `Duration.ZERO`): it never retries unless its caller raises it.
 */
export const JAVA_MAX_RETRY_WAIT_MS = 0
/** A neighbour's hits at once, in one burst (`FLOOD_BURSTS`, `FLOOD_GAP_MS` apart). */
export const FLOOD_SIZES = [400, 2_500, 6_000]
const FLOOD_BURSTS = 1
const FLOOD_GAP_MS = 10_000
/** The plugin server beside a flood: a hit every 2 s from the first burst for 20 s. */
const SERVER_EVERY_MS = 2_000
const SERVER_HITS = 10
/** Before the flood the server has been running: a hit a minute for 10 minutes (not counted). */
const SERVER_WARMUP = 10
const SERVER_WARMUP_EVERY_MS = 60_000

const hex = (n) => n.toString(16)

/** The networks of the floods: the neighbour's addresses and the plugin server's. */
export const FLOOD_NETWORKS = [
  {
    label: 'ipv6-48',
    what: 'its /64s of the server\u2019s /48',
    // 256 /64s of the /48, cycled, as 250 addresses of the /24 (attackers.mjs).
    neighbour: (i) => `2001:db8:0:${hex(i % SIXTY_FOURS_PER_48)}::1`,
    server: '2001:db8:0:ffff::10',
  },
  {
    label: 'ipv4-24',
    what: 'the addresses of the server\u2019s /24',
    neighbour: (i) => `198.51.100.${1 + (i % 250)}`,
    server: '198.51.100.251',
  },
]

/** Runs one caller (and `others` beside it) from `start`; answers the caller's figures. */
async function run(service, runActors, start, c, others = []) {
  const actors = [c, ...others]
  const last = Math.max(...actors.flatMap((a) => (a.due === null ? [] : [a.due])))
  // Long enough for every send and the Java client's retries, were they allowed.
  await runActors(service, actors, { start, durationMs: last - start + 3_600_000 })
  return c.figures
}

/** Every pattern, each in a simulated period of its own (`nextStart()`). */
export async function pluginPatterns(service, { nextStart, live, runActors, log }) {
  const paths = live.map((id) => `/server-api?id=${id}`)
  const play = (sends, retry = null, start) =>
    run(service, runActors, start, caller({ sends, retry }))
  const out = { chunkLoads: [], floods: [] }

  for (const n of CHUNK_SIZES) {
    const blocks = paths.slice(0, n)
    const start = nextStart()
    const together = await play(atOnce('203.0.113.30', blocks, start), null, start)
    const alone = nextStart()
    const oneByOne = await play(
      oneAfterAnother('203.0.113.31', blocks, alone, REQUEST_MS),
      null,
      alone,
    )
    out.chunkLoads.push({ n, atOnce: together, oneByOne })
    log(
      `harvest: chunk load of ${n}: ${together.served} served at once, ${oneByOne.served} one by one`,
    )
  }

  const models = paths.slice(0, STARTUP_MODELS)
  let start = nextStart()
  const servers = Array.from({ length: STARTUP_SERVERS }, (_, s) => `198.18.7.${11 + s}`)
  const together = await play(
    servers.flatMap((a) => oneAfterAnother(a, models, start, REQUEST_MS)),
    null,
    start,
  )
  start = nextStart()
  const alone = await play(oneAfterAnother('198.18.9.11', models, start, REQUEST_MS), null, start)
  out.startup = { servers: STARTUP_SERVERS, models: STARTUP_MODELS, together, alone }
  log(`harvest: ${STARTUP_SERVERS} servers restarting: ${together.served} of ${together.requests}`)

  const java = paths.slice(0, JAVA_MODELS)
  const retry = { maxRetryWaitMs: JAVA_MAX_RETRY_WAIT_MS }
  start = nextStart()
  const javaAtOnce = await play(atOnce('203.0.113.50', java, start), retry, start)
  start = nextStart()
  const javaOneByOne = await play(
    oneAfterAnother('203.0.113.51', java, start, REQUEST_MS),
    retry,
    start,
  )
  out.java = { models: JAVA_MODELS, maxRetryWaitMs: JAVA_MAX_RETRY_WAIT_MS }
  Object.assign(out.java, { atOnce: javaAtOnce, oneByOne: javaOneByOne })
  log(`harvest: Java client, 100 at once: ${javaAtOnce.served} served`)

  for (const network of FLOOD_NETWORKS) {
    start = nextStart()
    const quiet = await run(service, runActors, start, floodServer(network.server, start, paths))
    for (const size of FLOOD_SIZES) {
      start = nextStart()
      const neighbour = caller({
        sends: Array.from({ length: FLOOD_BURSTS }, (_, b) =>
          Array.from({ length: size }, (_, i) => ({
            at: start + b * FLOOD_GAP_MS,
            address: network.neighbour(i),
            path: paths[i % paths.length],
          })),
        ).flat(),
      })
      const server = await run(
        service,
        runActors,
        start,
        floodServer(network.server, start, paths),
        [neighbour],
      )
      out.floods.push({
        network: network.label,
        what: network.what,
        size,
        bursts: FLOOD_BURSTS,
        address: network.server,
        server,
        quiet,
        neighbour: neighbour.figures,
      })
      log(
        `harvest: flood of ${size} hits from ${network.label}: server ${server.served} of ` +
          `${server.requests} served, neighbour ${neighbour.figures.served} of ${neighbour.figures.requests}`,
      )
    }
  }
  return out
}

/**
 * A plugin server sending hits every `SERVER_EVERY_MS` from `start` (the first in the flood's
 * own step), after `SERVER_WARMUP` hits in the ten minutes before, which are not counted.
 */
function floodServer(address, start, paths) {
  const warm = Array.from({ length: SERVER_WARMUP }, (_, i) => ({
    at: start - (SERVER_WARMUP - i) * SERVER_WARMUP_EVERY_MS,
    address,
    path: paths[i % 10],
  }))
  const during = Array.from({ length: SERVER_HITS }, (_, i) => ({
    at: start + i * SERVER_EVERY_MS,
    address,
    path: paths[i % 10],
  }))
  return caller({ sends: [...warm, ...during], countFrom: start })
}
