/**
 * The bench's command line and the settings every section reads: where things are, how long a
 * run is (`--quick`), which sections run (`--only`), the candidate Worker (`--entry`), the
 * latency model's waits, and the sizes and loads of each section (`config`, kept in
 * bench-results/latest.json as `config`, in this shape).
 */
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
export const FIXTURES = join(ROOT, 'fixtures')
export const OUT_DIR = join(ROOT, 'bench-results')
export const BUILD = join(OUT_DIR, 'build')
export const PUBLISH_TOKEN = 'bench-token'
/** Limits no benchmark reaches, so the limiter admits (and counts) every request. */
export const HIGH_LIMITS = {
  RATE_LIMIT_SHORT: '999999999/60',
  RATE_LIMIT_LONG: '999999999/3600',
  // Misses are counted (the 404 case pays the call that counts them), never penalized.
  RATE_LIMIT_CLIENT_MISSES: '999999999/3600',
  RATE_LIMIT_PREFIX_MISSES: '999999999/3600',
  // The 404 case's 1,024 addresses share one /16 (its misses are asked of it before the answer).
  RATE_LIMIT_WIDE_MISSES: '999999999/3600',
}
/**
 * `RATE_LIMIT_FLUSH_SECONDS` of the Workers with a limiter: the limiter's storage work trails
 * its requests by up to this long, and each run of a case served by a limiter is followed by a
 * pause of this plus a second that is charged to it (request/measure.mjs).
 */
export const BENCH_FLUSH_SECONDS = 1
const SYNTHETIC_BYTES = 20_000_000
const FIXTURE_NAMES = ['animated-80-displays', 'reading-41-displays', 'stone-gate-136-displays']
/** The substitution section's inputs, in Node and in workerd. */
export const SUBSTITUTION_INPUTS = [
  ...FIXTURE_NAMES.map((name) => ({ name, file: join(FIXTURES, `${name}.json`) })),
  { name: 'synthetic-20MB-dense', synthetic: 'dense', bytes: SYNTHETIC_BYTES },
  { name: 'synthetic-20MB-sparse', synthetic: 'sparse', bytes: SYNTHETIC_BYTES },
]
/** Tags of the GET benchmarks: lengths 1 to 100, shorter and longer than the placeholder. */
export const TAGS = [
  'bde',
  'model',
  'x',
  'my_model-7',
  'Castle_Gate_2',
  'a'.repeat(16),
  'tag'.repeat(8),
  'Z'.repeat(100),
  'shop-npc_42',
  'dragon',
]

/** The command line (`npm run bench -- ...`), read once. */
export function parseOptions(args) {
  const value = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null)
  const number = (name, fallback) => (value(name) === null ? fallback : Number(value(name)))
  const quick = args.includes('--quick')
  const save = args.includes('--save')
  /** `--only a,b`: run only these sections; others are left out of the table. */
  const only = value('--only')?.split(',') ?? null
  if (only !== null && save && quick) throw new Error('--save keeps full runs: drop --quick')
  const delays = {
    limiterMs: number('--limiter-delay-ms', 5),
    kvMs: number('--kv-delay-ms', 10),
  }
  return {
    quick,
    save,
    only,
    entry: value('--entry'),
    delays,
    config: sectionConfig(quick, delays),
  }
}

/** Each section's sizes and loads; `--quick` makes a short smoke run. */
function sectionConfig(quick, delays) {
  return {
    substitution: {
      rounds: quick ? 2 : 5,
      nodeBatchMs: quick ? 50 : 150,
      workerdBatchMs: quick ? 60 : 200,
    },
    memory: { sizes: [1_000_000, 20_000_000], synthetic: 'dense' },
    http: {
      connections: 8,
      warmupSeconds: quick ? 0.5 : 1,
      durationSeconds: quick ? 1 : 3,
      rounds: quick ? 1 : 3,
      clientIps: 1024,
      streamedBytes: 4_000_000,
      flushSeconds: BENCH_FLUSH_SECONDS,
    },
    limiter: {
      calls: quick ? 100 : 400,
      rounds: quick ? 2 : 5,
      sustainedSeconds: quick ? 20 : 60,
      latencyRequests: quick ? 30 : 150,
      delays,
    },
    publish: {
      fixture: 'animated-80-displays',
      amount: quick ? 20 : 100,
      piece: 20,
      pieceRounds: quick ? 2 : 16,
      warmupRounds: quick ? 1 : 2,
      connections: 4,
      rounds: quick ? 1 : 3,
    },
    alloc: { space: 2000, fill: 1800, batch: 100, pieces: 4, rounds: quick ? 8 : 40 },
    page: { rounds: quick ? 1 : 3 },
  }
}
