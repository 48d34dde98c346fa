/**
 * Bench-only Worker: what the rate limiter's objects write. It drives `hit` calls from inside
 * workerd to one rate-limit object per client and counts, per case, every row-writing storage
 * call the objects make (`put`, `setAlarm`, `deleteAll`, `delete`, through either storage API)
 * and every alarm invocation (a billed Durable Object request).
 *
 *   GET /sustained?case=C&clients=N&rate=R&seconds=S&short=Q/S&long=Q/S
 *       N clients, each sending R requests a second for S seconds under the windows given,
 *       spread evenly; answers once
 *       the last call returned: `{ hits, admitted, seconds, lateMs, lateP90Ms }`: the median
 *       and 90th percentile delay of a call behind its schedule, to show the driver kept up
 *   GET /one-off?case=C&clients=N&requests=K&gapMs=G&perSecond=P&short=Q/S&long=Q/S
 *       N new clients, P starting a second, each sending K requests G ms apart (from its first),
 *       under the windows given: `{ hits, admitted, seconds }`
 *   GET /pending?case=C&clients=N
 *       how many of the case's N objects still have an alarm set: `{ pending }`
 *   GET /ids?case=C&clients=N
 *       the ids of the case's N objects (hex), the names of their SQLite files: `{ ids }`
 *   GET /counts?case=C
 *       what the objects of case C did so far: `{ put, setAlarm, deleteAll, delete, alarms,
 *       written }`, `written` the number of objects that wrote at least one row
 *
 * Counters live in this module: in workerd
 * a Worker and its Durable Objects share one isolate. A case is a prefix of the objects' names.
 */
import { rateLimitFlushSeconds, type Env } from '../../../src/config'
import { DEFAULT_MISS_SETTINGS } from '../../../src/rate-limit/misses'
import { PrefixRateLimiter } from '../../../src/rate-limit/rate-limiter'
import { parseWindowRule } from '../../../src/rate-limit/rules'
import type { WindowRule } from '../../../src/rate-limit/windows'

interface CountEnv extends Env {
  WRITE_BEHIND: DurableObjectNamespace<CountedWriteBehind>
}

interface Counts {
  put: number
  setAlarm: number
  deleteAll: number
  delete: number
  alarms: number
  /** Objects that wrote at least one row: those whose storage held something for a while. */
  written: number
}

const counts = new Map<string, Counts>()

function countsOf(label: string): Counts {
  let c = counts.get(label)
  if (c === undefined) {
    c = { put: 0, setAlarm: 0, deleteAll: 0, delete: 0, alarms: 0, written: 0 }
    counts.set(label, c)
  }
  return c
}

/** The case an object belongs to: its name up to the first `/`. */
function caseOf(ctx: DurableObjectState): string {
  return (ctx.id.name ?? 'unnamed').split('/')[0]!
}

const COUNTED = new Set(['put', 'setAlarm', 'deleteAll', 'delete'])

/**
 * Rows a call writes: one per key for `put` of an object of entries and `delete` of an array of
 * keys (both write each row), else one (`deleteAll` counts as one: a limiter object holds a
 * record or two when it empties its storage).
 */
function rowsOf(method: string, first: unknown): number {
  if (method === 'delete' && Array.isArray(first)) return first.length
  if (method === 'put' && typeof first === 'object' && first !== null) {
    return Object.keys(first).length
  }
  return 1
}

/** Names of the objects that wrote a row, so that `written` counts each once. */
const writers = new Set<string>()

/**
 * `target` with its methods bound, those named in COUNTED counted into `c` on each call, and
 * the object `name` counted once in `c.written` on its first `put` or `setAlarm`.
 */
function counting<T extends object>(
  target: T,
  c: Counts,
  name: string,
  inner: Record<string, unknown> = {},
): T {
  return new Proxy(target, {
    get(t, key) {
      if (typeof key === 'string' && key in inner) return inner[key]
      const value: unknown = Reflect.get(t, key)
      if (typeof value !== 'function') return value
      const bound = (value as (...args: unknown[]) => unknown).bind(t)
      if (typeof key !== 'string' || !COUNTED.has(key)) return bound
      return (...args: unknown[]) => {
        c[key as keyof Counts] += rowsOf(key, args[0])
        if ((key === 'put' || key === 'setAlarm') && !writers.has(name)) {
          writers.add(name)
          c.written++
        }
        return bound(...args)
      }
    },
  })
}

/** The object's context with its storage (and the storage's sync KV API) counted. */
function countedContext(ctx: DurableObjectState): DurableObjectState {
  const c = countsOf(caseOf(ctx))
  const name = ctx.id.name ?? ctx.id.toString()
  const storage = counting(ctx.storage, c, name, { kv: counting(ctx.storage.kv, c, name) })
  return counting(ctx, c, name, { storage })
}

/** The service's rate limiter, counted. */
export class CountedWriteBehind extends PrefixRateLimiter {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // The base class takes only the runtime's own state object; the methods find the counted
    // one. Reads in the constructor go uncounted, as only writes are counted.
    Object.defineProperty(this, 'ctx', { value: countedContext(ctx) })
  }

  override alarm(): void {
    countsOf(caseOf(this.ctx)).alarms++
    super.alarm()
  }

  /** When the object's alarm is set, or null: whether its life has more to come. */
  alarmAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm()
  }
}

export default {
  async fetch(request: Request, env: CountEnv): Promise<Response> {
    const url = new URL(request.url)
    const label = url.searchParams.get('case') ?? 'default'
    const number = (name: string) => Number(url.searchParams.get(name))
    const stubs = () =>
      Array.from({ length: number('clients') }, (_, i) =>
        env.WRITE_BEHIND.getByName(`${label}/${i}`),
      )
    switch (url.pathname) {
      case '/counts':
        return Response.json(countsOf(label))
      case '/ids':
        return Response.json({
          ids: Array.from({ length: number('clients') }, (_, i) =>
            env.WRITE_BEHIND.idFromName(`${label}/${i}`).toString(),
          ),
        })
      case '/pending': {
        const alarms = await Promise.all(stubs().map((stub) => stub.alarmAt()))
        return Response.json({ pending: alarms.filter((at) => at !== null).length })
      }
      case '/sustained':
        return Response.json(
          await sustained(stubs(), {
            rate: number('rate'),
            seconds: number('seconds'),
            rules: windowsOf(url),
            flushSeconds: rateLimitFlushSeconds(env),
          }),
        )
      case '/one-off': {
        const rules = windowsOf(url)
        const flushSeconds = rateLimitFlushSeconds(env)
        return Response.json(
          await oneOff(stubs(), {
            requests: number('requests'),
            gapMs: number('gapMs'),
            perSecond: number('perSecond'),
            rules,
            flushSeconds,
          }),
        )
      }
      default:
        return new Response('not found', { status: 404 })
    }
  },
}

/** The windows of a load: the `short` and `long` query parameters, `"requests/seconds"`. */
function windowsOf(url: URL): WindowRule[] {
  return [
    parseWindowRule('short', url.searchParams.get('short') ?? ''),
    parseWindowRule('long', url.searchParams.get('long') ?? ''),
  ]
}

type Limiter = DurableObjectStub<CountedWriteBehind>

interface Load {
  rate: number
  seconds: number
  rules: WindowRule[]
  flushSeconds: number
}

/** Sends every client's requests on schedule, without waiting for one to send the next. */
async function sustained(
  stubs: Limiter[],
  load: Load,
): Promise<{ hits: number; admitted: number; seconds: number; lateMs: number; lateP90Ms: number }> {
  const periodMs = 1000 / load.rate
  const clients = stubs.length
  const total = Math.round(clients * load.rate * load.seconds)
  const start = Date.now()
  const pending: Promise<void>[] = []
  const late: number[] = []
  let admitted = 0
  // Request n goes to client n % clients, at n / (clients * rate) seconds: evenly spread.
  for (let n = 0; n < total;) {
    const now = Date.now()
    for (; n < total && start + (n * periodMs) / clients <= now; n++) {
      late.push(now - (start + (n * periodMs) / clients))
      const call = stubs[n % clients]!.hit('client', policyOf(load.rules), load.flushSeconds)
      pending.push(
        Promise.resolve(call).then((verdict) => {
          if (verdict.admitted) admitted++
        }),
      )
    }
    await sleep(5)
  }
  await Promise.all(pending)
  const lateMs = late.sort((a, b) => a - b)[late.length >> 1] ?? 0
  const lateP90Ms = late[Math.floor(late.length * 0.9)] ?? 0
  return { hits: total, admitted, seconds: (Date.now() - start) / 1000, lateMs, lateP90Ms }
}

/**
 * `perSecond` new clients start each second; each sends its `requests`, the i-th `i * gapMs` after
 * its first (or once the one before it has answered, if that is later).
 */
async function oneOff(
  stubs: Limiter[],
  load: {
    requests: number
    gapMs: number
    perSecond: number
    rules: WindowRule[]
    flushSeconds: number
  },
): Promise<{ hits: number; admitted: number; seconds: number }> {
  const start = Date.now()
  let admitted = 0
  await Promise.all(
    stubs.map(async (stub, client) => {
      const first = start + (client * 1000) / load.perSecond
      for (let i = 0; i < load.requests; i++) {
        await sleep(first + i * load.gapMs - Date.now())
        if ((await stub.hit('client', policyOf(load.rules), load.flushSeconds)).admitted) admitted++
      }
    }),
  )
  const hits = stubs.length * load.requests
  return { hits, admitted, seconds: (Date.now() - start) / 1000 }
}

/** Every object stands for one prefix with one client; the miss limit at its defaults. */
function policyOf(rules: WindowRule[]) {
  return { rules, misses: DEFAULT_MISS_SETTINGS }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))
}
