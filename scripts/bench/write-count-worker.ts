/**
 * Bench-only Worker: row writes per retrieval at sustained load. It drives `hit` calls at a
 * steady rate from inside workerd to one rate-limit object per client and counts, per case,
 * every row-writing storage call the objects make (`put`, `setAlarm`, `deleteAll`, `delete`,
 * through either storage API) and every alarm invocation (a billed Durable Object request).
 *
 *   GET /sustained?design=D&case=C&clients=N&rate=R&seconds=S
 *       N clients, each sending R requests a second for S seconds, spread evenly; answers once
 *       the last call returned: `{ hits, admitted, seconds, lateMs, lateP90Ms }`: the median
 *       and 90th percentile delay of a call behind its schedule, to show the driver kept up
 *   GET /counts?case=C
 *       what the objects of case C did so far: `{ put, setAlarm, deleteAll, delete, alarms }`
 *
 * D is `write-behind` (src/rate-limit/rate-limiter.ts) or `write-through` (the design before,
 * write-through-limiter.ts). Counters live in this module: in workerd a Worker and its Durable
 * Objects share one isolate. A case is a prefix of the objects' names.
 */
import { rateLimitFlushSeconds, type Env } from '../../src/config'
import { rateLimitRules } from '../../src/rate-limit/rules'
import { RateLimiter } from '../../src/rate-limit/rate-limiter'
import { WriteThroughRateLimiter } from './write-through-limiter'

interface CountEnv extends Env {
  WRITE_BEHIND: DurableObjectNamespace<CountedWriteBehind>
  WRITE_THROUGH: DurableObjectNamespace<CountedWriteThrough>
}

interface Counts {
  put: number
  setAlarm: number
  deleteAll: number
  delete: number
  alarms: number
}

const counts = new Map<string, Counts>()

function countsOf(label: string): Counts {
  let c = counts.get(label)
  if (c === undefined) {
    c = { put: 0, setAlarm: 0, deleteAll: 0, delete: 0, alarms: 0 }
    counts.set(label, c)
  }
  return c
}

/** The case an object belongs to: its name up to the first `/`. */
function caseOf(ctx: DurableObjectState): string {
  return (ctx.id.name ?? 'unnamed').split('/')[0]!
}

const COUNTED = new Set(['put', 'setAlarm', 'deleteAll', 'delete'])

/** `target` with its methods bound, those named in COUNTED counted into `c` on each call. */
function counting<T extends object>(target: T, c: Counts, inner: Record<string, unknown> = {}): T {
  return new Proxy(target, {
    get(t, key) {
      if (typeof key === 'string' && key in inner) return inner[key]
      const value: unknown = Reflect.get(t, key)
      if (typeof value !== 'function') return value
      const bound = (value as (...args: unknown[]) => unknown).bind(t)
      if (typeof key !== 'string' || !COUNTED.has(key)) return bound
      return (...args: unknown[]) => {
        c[key as keyof Counts]++
        return bound(...args)
      }
    },
  })
}

/** The object's context with its storage (and the storage's sync KV API) counted. */
function countedContext(ctx: DurableObjectState): DurableObjectState {
  const c = countsOf(caseOf(ctx))
  const storage = counting(ctx.storage, c, { kv: counting(ctx.storage.kv, c) })
  return counting(ctx, c, { storage })
}

/** The service's rate limiter, counted. */
export class CountedWriteBehind extends RateLimiter {
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
}

/** The limiter of before write-behind, counted. */
export class CountedWriteThrough extends WriteThroughRateLimiter {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    Object.defineProperty(this, 'ctx', { value: countedContext(ctx) })
  }

  override async alarm(): Promise<void> {
    countsOf(caseOf(this.ctx)).alarms++
    await super.alarm()
  }
}

export default {
  async fetch(request: Request, env: CountEnv): Promise<Response> {
    const url = new URL(request.url)
    const label = url.searchParams.get('case') ?? 'default'
    if (url.pathname === '/counts') return Response.json(countsOf(label))
    if (url.pathname !== '/sustained') return new Response('not found', { status: 404 })
    const number = (name: string) => Number(url.searchParams.get(name))
    const design = url.searchParams.get('design')
    const namespace = design === 'write-through' ? env.WRITE_THROUGH : env.WRITE_BEHIND
    return Response.json(
      await drive(namespace, label, {
        clients: number('clients'),
        rate: number('rate'),
        seconds: number('seconds'),
        rules: rateLimitRules(env),
        flushSeconds: rateLimitFlushSeconds(env),
      }),
    )
  },
}

interface Load {
  clients: number
  rate: number
  seconds: number
  rules: ReturnType<typeof rateLimitRules>
  flushSeconds: number
}

/** Sends every client's requests on schedule, without waiting for one to send the next. */
async function drive(
  namespace: CountEnv['WRITE_BEHIND'] | CountEnv['WRITE_THROUGH'],
  label: string,
  load: Load,
): Promise<{ hits: number; admitted: number; seconds: number; lateMs: number; lateP90Ms: number }> {
  const periodMs = 1000 / load.rate
  const total = Math.round(load.clients * load.rate * load.seconds)
  const stubs = Array.from({ length: load.clients }, (_, i) => namespace.getByName(`${label}/${i}`))
  const start = Date.now()
  const pending: Promise<void>[] = []
  const late: number[] = []
  let admitted = 0
  // Request n goes to client n % clients, at n / (clients * rate) seconds: evenly spread.
  for (let n = 0; n < total;) {
    const now = Date.now()
    for (; n < total && start + (n * periodMs) / load.clients <= now; n++) {
      late.push(now - (start + (n * periodMs) / load.clients))
      const call = stubs[n % load.clients]!.hit(load.rules, load.flushSeconds)
      pending.push(
        Promise.resolve(call).then((verdict) => {
          if (verdict.admitted) admitted++
        }),
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await Promise.all(pending)
  const lateMs = late.sort((a, b) => a - b)[late.length >> 1] ?? 0
  const lateP90Ms = late[Math.floor(late.length * 0.9)] ?? 0
  return { hits: total, admitted, seconds: (Date.now() - start) / 1000, lateMs, lateP90Ms }
}
