/**
 * The rate-limit object (protocol.ts): one class, named either by a client key (an IPv4 address,
 * an IPv6 /64) or by a network (an IPv4 /24, an IPv6 /48; client-key.ts).
 *
 * A client's object holds that client's record: its request windows and its misses. It decides
 * each request at admission (`hit`), from memory, with no `await` in between, so concurrent
 * requests are serialized and no burst is admitted beyond the windows; what the isolate says of
 * the network (its penalty, its burst room) travels in the call. It counts the client's misses
 * (`miss`) before they are answered. Only the client's own requests reach it: a neighbour's flood
 * cannot overload it.
 *
 * A network's object holds the network's misses. It is asked only once a request has been found
 * to be a miss, before the miss is answered (`networkMiss`): it counts it, always, and says how
 * the network stands. It refuses nothing: a request once admitted is answered as what it is.
 *
 * Storage trails memory (write-behind.ts): a lone request is never written, busier records by at
 * most one flush interval; the one alarm writes and deletes, and nothing stays stored past its
 * windows and penalty. A change that starts or lengthens a penalty is written before the call
 * returns, so before the answer it leads to (docs/rate-limits.md#durability); so is a clean
 * client's record while its network is strained: it is what lets the client through.
 */
import { DurableObject } from 'cloudflare:workers'
import { DEFAULT_RATE_LIMIT_FLUSH_SECONDS, type Env } from '../config'
import {
  admit,
  clientForgetAt,
  clientMiss,
  isClean,
  networkMiss,
  passClosed,
  prefixForgetAt,
  type ClientRecord,
  type LimitPolicy,
} from './limits'
import { missesInWindow, penaltyEnd, type MissState } from './misses'
import type {
  ClientMissCount,
  ClientVerdict,
  MissContext,
  NetworkMissCount,
  RequestStanding,
} from './protocol'
import {
  alarmStep,
  loaded,
  nextAlarm,
  planChange,
  UNSTORED,
  writtenAt,
  type Change,
  type RecordStorage,
} from './write-behind'

/** Storage key of a client's record: this, then its client key. Stable across versions. */
export const CLIENT_RECORD_PREFIX = 'client:'
/** Storage key of a network's own misses. Stable across versions. */
export const PREFIX_RECORD_KEY = 'prefix'

/** A lost write loses at most the counts of one interval, which the loss bound allows anyway. */
const UNCONFIRMED = { allowUnconfirmed: true } as const

/**
 * Lone requests are held in memory with no alarm to clear them; memory is swept of the lapsed
 * ones when it holds this many records, then twice as many as were left.
 */
const SWEEP_FROM = 1024

/** A record in memory: its data, when it lapses, and what storage holds of it. */
interface Entry<T> {
  data: T
  forgetAt: number
  storage: RecordStorage
}

/** What is stored of a record: its data and when it lapses, so a new instance knows. */
type Stored<T> = T & { forgetAt: number }

/**
 * The request counter of a client (docs/api.md#rate-limits), or a network's miss counter. Its
 * public methods are its protocol (protocol.ts); the rest is `#private`, out of RPC's reach.
 */
export class PrefixRateLimiter extends DurableObject<Env> {
  /** Memory is the truth while the instance lives; storage trails it. */
  readonly #records = new Map<string, Entry<ClientRecord | MissState>>()
  /** When the alarm is due, as this instance set it or as storage implies; null: none. */
  #alarmDue: number | null = null
  #flushMs = DEFAULT_RATE_LIMIT_FLUSH_SECONDS * 1000
  /** Records held at which memory is next swept of lapsed ones that storage does not hold. */
  #sweepAt = SWEEP_FROM
  /**
   * How long a lapsed clean client is still known (ms): the longest window of the policy last
   * seen. Its record stays in memory that long (never in storage), for `#lapsedClean`.
   */
  #knownAfterLapseMs = 3600_000

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    for (const [key, value] of ctx.storage.kv.list<Stored<ClientRecord | MissState>>()) {
      const { forgetAt, ...data } = value
      this.#records.set(key, { data, forgetAt, storage: loaded(forgetAt) })
      // Whoever stored it set an alarm at or before its lapse.
      if (this.#alarmDue === null || forgetAt < this.#alarmDue) this.#alarmDue = forgetAt
    }
  }

  /**
   * Counts a request of `clientKey` against its windows if it is admitted: if all have room and
   * neither the client nor (for a client that is not clean) its network is penalized or out of
   * burst room. Refusals count nowhere. `flushSeconds` is the flush interval
   * (`RATE_LIMIT_FLUSH_SECONDS`).
   */
  hit(
    clientKey: string,
    policy: LimitPolicy,
    flushSeconds = DEFAULT_RATE_LIMIT_FLUSH_SECONDS,
    standing: RequestStanding = {},
  ): ClientVerdict {
    const now = Date.now()
    this.#flushMs = flushSeconds * 1000
    const key = CLIENT_RECORD_PREFIX + clientKey
    const exempt = standing.exempt === true
    this.#knownAfterLapseMs = Math.max(...policy.rules.map((rule) => rule.periodSeconds)) * 1000
    const live = this.#live<ClientRecord>(key, now)
    const lapsed = live === undefined ? this.#lapsedClean(key, now) : undefined
    const { verdict, client } = admit(live, policy, now, {
      exempt,
      vouched: standing.vouched === true,
      ...(standing.network === undefined ? {} : { network: standing.network }),
      ...(lapsed === undefined ? {} : { lapsedClient: lapsed }),
    })
    if (client !== null) {
      const kept =
        !exempt && policy.misses.enabled && verdict.clean === true && standing.network?.strained
      this.#change(key, client, clientForgetAt(client, policy), kept ? 'kept' : 'request', now)
    }
    return verdict
  }

  /**
   * Counts a miss (an answer of 404, 410 or 400 `invalid_id` to an admitted request) of
   * `clientKey`, before it is answered; returns the client's penalty after it.
   */
  miss(
    clientKey: string,
    policy: LimitPolicy,
    flushSeconds = DEFAULT_RATE_LIMIT_FLUSH_SECONDS,
    context: MissContext = {},
  ): ClientMissCount {
    const now = Date.now()
    this.#flushMs = flushSeconds * 1000
    const key = CLIENT_RECORD_PREFIX + clientKey
    const before = this.#live<ClientRecord>(key, now)
    const after = clientMiss(before, policy, now)
    if (after === null) return { penaltyUntil: 0 }
    const penaltyUntil = penaltyEnd(after.misses, now)
    const lengthened = penaltyUntil > penaltyEnd(before?.misses, now)
    const kept = context.networkStrained === true && isClean(after, now)
    const change = lengthened ? 'breach' : kept ? 'kept' : 'miss'
    this.#change(key, after, clientForgetAt(after, policy), change, now)
    return { penaltyUntil }
  }

  /**
   * Counts a miss of a client of this network (this object is named by it), before the miss is
   * answered, and says how the network stands after it; `clean`: the client's object admitted it
   * as a clean client (its misses during the penalty count against the clean clients' pass). It never refuses: the miss is answered
   * whatever this says, and its penalty refuses the network's later requests at admission.
   */
  networkMiss(
    policy: LimitPolicy,
    flushSeconds = DEFAULT_RATE_LIMIT_FLUSH_SECONDS,
    clean = false,
  ): NetworkMissCount {
    const now = Date.now()
    this.#flushMs = flushSeconds * 1000
    const before = this.#live<MissState>(PREFIX_RECORD_KEY, now)
    const after = networkMiss(before, policy, now, clean)
    if (after === null) return { misses: 0, resetAt: 0, penaltyUntil: 0, passClosed: false }
    const penaltyUntil = penaltyEnd(after, now)
    const lengthened = penaltyUntil > penaltyEnd(before, now)
    const forgetAt = prefixForgetAt(after, policy)
    this.#change(PREFIX_RECORD_KEY, after, forgetAt, lengthened ? 'breach' : 'miss', now)
    return {
      misses: missesInWindow(after, now),
      resetAt: after.resetAt,
      penaltyUntil,
      passClosed: passClosed(after, policy.misses, now),
    }
  }

  /** Writes what memory holds ahead of storage, and deletes what has lapsed. */
  override alarm(): void {
    const now = Date.now()
    this.#alarmDue = null
    let wrote = false
    let deletes: string[] = []
    for (const [key, entry] of this.#records) {
      const step = alarmStep(entry.storage, entry.forgetAt, now, this.#flushMs)
      if (step === 'forget' || step === 'unstore') {
        if (entry.storage.storedForgetAt !== 0) deletes.push(key)
        if (step === 'forget' && !this.#keptInMemory(key, entry, now)) this.#records.delete(key)
        else entry.storage = { ...entry.storage, storedForgetAt: 0, dirty: false }
      } else if (step === 'settle') {
        entry.storage = { ...entry.storage, dirty: false }
      } else if (step === 'write') {
        this.#write(key, entry, now)
        wrote = true
      }
    }
    const storedAts = [...this.#records.values()].map((entry) => entry.storage.storedForgetAt)
    if (deletes.length > 0 && storedAts.every((at) => at === 0)) {
      // Nothing stored is needed any more: one call empties the object's storage. (It takes no
      // `allowUnconfirmed`; in an alarm no answer waits for it anyway.)
      void this.ctx.storage.deleteAll()
      deletes = []
    }
    if (deletes.length > 0) void this.ctx.storage.delete(deletes, UNCONFIRMED)
    this.#setAlarm(nextAlarm(wrote, storedAts, now, this.#flushMs))
  }

  /** The lapsed record of a client at `key` that memory still holds, if it was clean. */
  #lapsedClean(key: string, now: number): ClientRecord | undefined {
    const entry = this.#records.get(key)
    return entry !== undefined && this.#keptInMemory(key, entry, now)
      ? (entry.data as ClientRecord)
      : undefined
  }

  /**
   * Whether memory keeps a lapsed record (storage never does): a clean client's, for as long as
   * it is still known after it lapsed.
   */
  #keptInMemory(key: string, entry: Entry<ClientRecord | MissState>, now: number): boolean {
    return (
      key.startsWith(CLIENT_RECORD_PREFIX) &&
      entry.forgetAt <= now &&
      now < entry.forgetAt + this.#knownAfterLapseMs &&
      isClean(entry.data as ClientRecord, now)
    )
  }

  /** The record at `key` if it has not lapsed at `now`. */
  #live<T extends ClientRecord | MissState>(key: string, now: number): T | undefined {
    const entry = this.#records.get(key)
    return entry !== undefined && now < entry.forgetAt ? (entry.data as T) : undefined
  }

  /** Puts a changed record in memory and applies its storage plan. */
  #change(
    key: string,
    data: ClientRecord | MissState,
    forgetAt: number,
    change: Change,
    now: number,
  ): void {
    const existing = this.#records.get(key)
    if (existing === undefined && this.#records.size >= this.#sweepAt) this.#sweep(now)
    // A lapsed record starts over; only the version storage may still hold of it matters.
    const storage =
      existing === undefined
        ? UNSTORED
        : existing.forgetAt > now
          ? existing.storage
          : { ...UNSTORED, storedForgetAt: existing.storage.storedForgetAt }
    const entry = { data, forgetAt, storage }
    this.#records.set(key, entry)
    const plan = planChange(storage, change, now, forgetAt, this.#pendingAlarm(now), this.#flushMs)
    entry.storage = plan.storage
    // A penalty's write is confirmed before the call returns (the output gate holds the answer):
    // a restart right after it must not give the penalty back.
    const confirmed = change === 'breach'
    if (plan.write) this.#write(key, entry, now, confirmed)
    if (plan.setAlarm !== undefined) this.#setAlarm(plan.setAlarm, confirmed)
  }

  /**
   * The alarm a change may leave its write to: one due later than `now`. An alarm already past
   * due may never run (alarms are retried a few times, then dropped) or run only after an
   * eviction: a count left to it could be lost, and a network's budget would then depend on
   * whether its cleanup ran. So a change past it plans as if none were set
   * (docs/rate-limits.md#durability).
   */
  #pendingAlarm(now: number): number | null {
    return this.#alarmDue !== null && this.#alarmDue > now ? this.#alarmDue : null
  }

  /** Forgets lapsed records that storage does not hold and no alarm will visit. */
  #sweep(now: number): void {
    for (const [key, entry] of this.#records) {
      const lapsed = entry.forgetAt <= now && entry.storage.storedForgetAt === 0
      if (lapsed && !entry.storage.dirty && !this.#keptInMemory(key, entry, now)) {
        this.#records.delete(key)
      }
    }
    this.#sweepAt = Math.max(SWEEP_FROM, 2 * this.#records.size)
  }

  #write(
    key: string,
    entry: Entry<ClientRecord | MissState>,
    now: number,
    confirmed = false,
  ): void {
    const data = { ...entry.data, forgetAt: entry.forgetAt }
    void this.ctx.storage.put(key, data, confirmed ? {} : UNCONFIRMED)
    entry.storage = writtenAt(now, entry.forgetAt)
  }

  #setAlarm(at: number | null, confirmed = false): void {
    if (at === null || at === this.#alarmDue) return
    this.#alarmDue = at
    void this.ctx.storage.setAlarm(at, confirmed ? {} : UNCONFIRMED)
  }
}
