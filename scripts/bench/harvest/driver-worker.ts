/**
 * The harvest section's driver Worker: the service itself (`src/index.ts`'s default export and its
 * Durable Object classes) behind a few bench-only routes that put many requests in flight at
 * once and move a simulated clock. The bench bundles it with an entry of its own that wraps
 * each Durable Object class of wrangler.toml with `benchObject` (index.mjs), runs it in Miniflare
 * with wrangler.toml's bindings, and drives it from Node (simulation.mjs).
 *
 * Simulated time: `Date.now` of this isolate returns the clock the last route set. The Durable
 * Objects run in the isolate of the Worker that exports them (isolate 0), so the app and its
 * objects read the same clock. Timers (`setTimeout`, the limiter's timeout) run on real time:
 * an object that cannot answer in time fails open for real. workerd schedules alarms on real
 * time, where the simulated ones never come due, so the objects' alarms are run here instead,
 * by calling the object's own `alarm()` once the simulated clock has passed the time it set.
 */
import { DurableObject } from 'cloudflare:workers'
import service from '../../../src/index'
import type { Env } from '../../../src/config'
import { clientAddress } from '../../../src/rate-limit/testing'

const realNow = Date.now.bind(Date)
let clock: number | null = null
Date.now = () => clock ?? realNow()

/** One request of a step: the client address and the path (with query). */
type StepRequest = [address: string, path: string]
/**
 * What a step answers per request: the status, `Retry-After` (seconds; 0 when absent) and, for
 * an error, its body's `code` (docs/api.md#errors; '' for a success or a body without one), so
 * that a `503` says which one it is.
 */
type StepAnswer = [status: number, retryAfterSeconds: number, code: string]

/** Durable Objects created in this isolate, by binding and id: their stub and next alarm. */
interface Tracked {
  binding: string
  id: string
  alarmAt: number | null
  /** An instance is in memory (constructed, not yet evicted by the bench). */
  alive: boolean
}
const objects = new Map<string, Tracked>()

/** What a bench object adds to the service's class: its alarm run on simulated time, eviction. */
interface BenchObject {
  benchRunAlarm(now: number): Promise<number | null>
  benchEvict(): Promise<void>
  benchPenaltyUntil(): Promise<number>
}

/** A stored record, as far as a penalty goes: a network's misses, or a client's. */
interface StoredPenalty {
  penaltyUntil?: number
  misses?: { penaltyUntil?: number }
}

/**
 * Calls one Durable Object answers a second, at most: what one limiter object answered in local
 * workerd. On these shared cores the Worker's side is slower than the object, so a
 * burst never queues at the object as it would behind thousands of production isolates; the
 * bench makes each call wait its turn in a queue that drains at this rate, on real time, so that
 * the limiter's real timeout decides what an overloaded object answers too late.
 */
export const OBJECT_CALLS_PER_SECOND = 8_000
const CALL_MS = 1000 / OBJECT_CALLS_PER_SECOND

/** The methods a class defines itself, which its callers reach by RPC (and it calls itself). */
function ownMethods(prototype: object): string[] {
  return Object.getOwnPropertyNames(prototype).filter(
    (name) =>
      name !== 'constructor' &&
      typeof Object.getOwnPropertyDescriptor(prototype, name)?.value === 'function',
  )
}

/**
 * The service's Durable Object class `Base`, with its calls queued at `OBJECT_CALLS_PER_SECOND`,
 * two bench-only methods, and a note of every alarm it sets. `binding` is the name the Worker
 * reaches it by. A call that finds no queue runs at once, as it always did; a call made from
 * inside another (the object's own helpers) runs at once too.
 */
export function benchObject<T extends new (ctx: DurableObjectState, env: Env) => DurableObject>(
  Base: T,
  binding: string,
): T {
  // The mixin is typed loosely: the service's classes have RPC methods of their own.
  const Bench = class extends (Base as new (ctx: DurableObjectState, env: Env) => DurableObject) {
    benchDepth = 0
    benchFreeAt = 0
    benchTracked: Tracked

    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env)
      const id = ctx.id.toString()
      const before = objects.get(`${binding} ${id}`)
      // An instance the bench did not evict lost its memory anyway (Miniflare evicts an object
      // idle for 10 s of real time, before the bench ran its flush alarm): counted as an
      // incident (`harvest.service.incidents`), since what it held unwritten is gone.
      if (before?.alive === true) {
        console.warn(JSON.stringify({ incident: 'bench_rebuilt_while_alive' }))
      }
      const tracked: Tracked = before ?? {
        binding,
        id,
        alarmAt: null,
        alive: true,
      }
      // In memory once one of the service's methods runs in it (`alive`): an instance built only
      // to be evicted is not one the next eviction must rebuild.
      objects.set(`${binding} ${id}`, tracked)
      this.benchTracked = tracked
      // An alarm left in storage (one dropped between runs) is due again once the object is back.
      void ctx.blockConcurrencyWhile(async () => {
        tracked.alarmAt = (await ctx.storage.getAlarm()) ?? tracked.alarmAt
      })
      const storage = ctx.storage
      const setAlarm = storage.setAlarm.bind(storage)
      storage.setAlarm = (at, options) => {
        tracked.alarmAt = typeof at === 'number' ? at : at.getTime()
        return setAlarm(at, options)
      }
    }

    /** Runs the alarm if storage holds one due at `now`; answers the next one set. */
    async benchRunAlarm(now: number): Promise<number | null> {
      const at = await this.ctx.storage.getAlarm()
      if (at === null || at > now) return at
      await this.ctx.storage.deleteAlarm()
      const alarm = (this as { alarm?: () => unknown }).alarm
      await alarm?.call(this)
      return this.ctx.storage.getAlarm()
    }

    /**
     * The latest penalty end its storage holds (ms; 0: none). A breach, and every miss that
     * lengthens a penalty, is written before its answer, so this is the penalty as it stands.
     */
    benchPenaltyUntil(): number {
      // An instance built only to be read holds what its constructor loaded, as one the service
      // used does: the next eviction ends it, so a later run rebuilds it from storage (and finds
      // its alarm) instead of reaching this one.
      this.benchTracked.alive = true
      let until = 0
      for (const [, value] of this.ctx.storage.kv.list<StoredPenalty>()) {
        until = Math.max(until, value.penaltyUntil ?? 0, value.misses?.penaltyUntil ?? 0)
      }
      return until
    }

    /** Ends this instance: the next call constructs a new one from storage, as after eviction. */
    benchEvict(): void {
      this.ctx.abort('bench: evicted')
    }
  }
  const prototype = Base.prototype as Record<string, (...args: unknown[]) => unknown>
  for (const name of ownMethods(prototype)) {
    const original = prototype[name]!
    const queued = name !== 'alarm'
    Object.defineProperty(Bench.prototype, name, {
      configurable: true,
      writable: true,
      value: function (this: InstanceType<typeof Bench>, ...args: unknown[]): unknown {
        const run = (): unknown => {
          this.benchTracked.alive = true
          this.benchDepth++
          try {
            return original.apply(this, args)
          } finally {
            this.benchDepth--
          }
        }
        if (this.benchDepth > 0 || !queued) return run()
        const now = realNow()
        const turn = Math.max(this.benchFreeAt, now)
        this.benchFreeAt = turn + CALL_MS
        const wait = turn - now
        return wait < 1 ? run() : new Promise((resolve) => setTimeout(resolve, wait)).then(run)
      },
    })
  }
  return Bench as unknown as T
}

/** The stub of a tracked object, with the bench methods. */
function stubOf(env: Env, t: Tracked): BenchObject {
  const ns = (env as unknown as Record<string, DurableObjectNamespace>)[t.binding]!
  return ns.get(ns.idFromString(t.id)) as unknown as BenchObject
}

/**
 * Runs every alarm due at `now`, in order of their times, each at its own time on the clock.
 * Each object's alarm runs at most once per call: one that sets itself again within `now` (a
 * flush watch) runs at the next step, a little late, rather than in a loop here.
 */
async function runAlarms(env: Env, now: number): Promise<number> {
  const due = [...objects.values()].filter((t) => t.alarmAt !== null && t.alarmAt <= now)
  due.sort((a, b) => a.alarmAt! - b.alarmAt!)
  for (const t of due) {
    clock = Math.max(clock ?? 0, t.alarmAt!)
    t.alarmAt = await stubOf(env, t).benchRunAlarm(clock)
  }
  clock = now
  return due.length
}

/**
 * Between two runs (days apart), where every record of the earlier run has lapsed and its alarm
 * would only delete it, the alarms due are not run: each would rebuild its object (thousands, one
 * per address and per /64) for nothing, minutes in all. An object used again later finds its
 * alarm in storage when it is rebuilt (`benchObject`), past due, and it runs at the next step, as
 * workerd runs a past alarm at once.
 */
function dropAlarmsDue(now: number): number {
  const due = [...objects.values()].filter((t) => t.alarmAt !== null && t.alarmAt <= now)
  for (const t of due) t.alarmAt = null
  return due.length
}

/** Evicts every object in memory, as workerd does after 10 s without events. */
async function evictAll(env: Env): Promise<number> {
  const all = [...objects.values()].filter((t) => t.alive)
  for (const t of all) t.alive = false
  // Each call rejects as its instance ends: that is the eviction.
  await Promise.allSettled(all.map((t) => stubOf(env, t).benchEvict()))
  return all.length
}

/** The execution context a request of a step runs under: its `waitUntil` work is awaited. */
function stepContext(ctx: ExecutionContext, pending: Promise<unknown>[]): ExecutionContext {
  return {
    waitUntil: (work: Promise<unknown>) => void pending.push(work),
    passThroughOnException: () => ctx.passThroughOnException(),
    props: ctx.props,
  } as ExecutionContext
}

async function answerOf(response: Response): Promise<StepAnswer> {
  const retryAfter = Number(response.headers.get('Retry-After') ?? 0)
  if (response.status < 400) {
    await response.arrayBuffer()
    return [response.status, retryAfter, '']
  }
  return [response.status, retryAfter, errorCode(await response.text())]
}

/** The `code` of an error body: at the top level, or inside a `429`'s `error` object. */
function errorCode(text: string): string {
  try {
    const body = JSON.parse(text) as { code?: unknown; error?: { code?: unknown } }
    const code = body.code ?? body.error?.code
    return typeof code === 'string' ? code : ''
  } catch {
    return ''
  }
}

const ORIGIN = 'https://harvest.bench'

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url)
    const body = request.method === 'POST' ? await request.json<Record<string, unknown>>() : {}
    if (url.pathname === '/clock') {
      // Before a step, on isolate 0 (the objects' own): alarms due within an idle gap run, the
      // objects are evicted if the gap was long, then the clock moves to the step's time (the
      // alarms due by then are dropped if the gap is one between runs).
      const { now, evictAt, betweenRuns } = body as {
        now: number
        evictAt: number | null
        betweenRuns: boolean
      }
      let alarms = 0
      let evicted = 0
      if (evictAt !== null) {
        alarms += await runAlarms(env, evictAt)
        evicted = await evictAll(env)
      }
      if (betweenRuns) dropAlarmsDue(now)
      else alarms += await runAlarms(env, now)
      clock = now
      return Response.json({ alarms, evicted })
    }
    if (url.pathname === '/step') {
      const { now, requests } = body as { now: number; requests: StepRequest[] }
      clock = now
      const pending: Promise<unknown>[] = []
      const context = stepContext(ctx, pending)
      const answers = await Promise.all(
        requests.map(async ([address, path]) => {
          const headers = { 'CF-Connecting-IP': address }
          return answerOf(
            await service.fetch(new Request(ORIGIN + path, { headers }), env, context),
          )
        }),
      )
      // The misses reported after the answers land before the next step.
      await Promise.allSettled(pending)
      return Response.json(answers)
    }
    if (url.pathname === '/penalties') {
      // The latest penalty end of the networks of `addresses`, as their objects store it.
      const { addresses } = body as { addresses: string[] }
      const names = [...new Set(addresses.map((a) => clientAddress(a).prefix))]
      const limiter = (env as unknown as Record<string, DurableObjectNamespace>)['RATE_LIMITER']!
      const ends = await Promise.all(
        names.map((name) =>
          (limiter.get(limiter.idFromName(name)) as unknown as BenchObject).benchPenaltyUntil(),
        ),
      )
      return Response.json({ penaltyUntil: Math.max(0, ...ends) })
    }
    if (url.pathname === '/publish') {
      const { now, count, token, exportBody } = body as {
        now: number
        count: number
        token: string
        exportBody: string
      }
      clock = now
      const ids: string[] = []
      for (let i = 0; i < count; i++) {
        const response = await service.fetch(
          new Request(`${ORIGIN}/editor-api/exports`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: exportBody,
          }),
          env,
          ctx,
        )
        if (response.status !== 201) {
          return new Response(await response.text(), { status: 500 })
        }
        ids.push((await response.json<{ id: string }>()).id)
      }
      return Response.json(ids)
    }
    return new Response('not found', { status: 404 })
  },
} satisfies ExportedHandler<Env>
