/**
 * One Durable Object per wider prefix (an IPv4 /24, an IPv6 /48; client-key.ts), holding a
 * record per client of the prefix (its request windows and its misses) and the prefix's own
 * misses. Keyed by the prefix, the one object a request asks also knows whether the prefix is
 * penalized: a fresh /64 under a penalized /48 is refused on its first request, and a hit still
 * costs one call. Each call decides from memory and updates it with no `await` in between, so
 * concurrent requests are serialized and no burst is admitted beyond the limit.
 *
 * The same class serves a wide prefix (an IPv4 /16, an IPv6 /32; client-key.ts), named by it and
 * reached only on the miss path, before the miss is answered: it holds that wide prefix's misses
 * alone (`wideMiss`), and a miss it refuses is not answered. What a network object knows of its
 * wide prefix's penalty it learns from the miss reports, in memory.
 *
 * Requests in flight (in-flight.ts): each admission under the miss limit reserves a possible miss
 * for the client and the prefix, which its miss report turns into a count, so that a burst cannot
 * be answered past the budgets (limits.ts). Reservations live in memory only.
 *
 * Storage trails memory (write-behind.ts): a lone request is never written, busier records by at
 * most one flush interval; the one alarm writes and deletes, and nothing stays stored past its
 * windows and penalty. Once a prefix is penalized or has spent its budget, its clean clients'
 * records are written with each change: they let those clients through its penalty, and must
 * outlive an eviction. What a restart loses: docs/rate-limits.md#durability. No verdict waits for
 * a write (writes go out unconfirmed).
 */
import { DurableObject } from 'cloudflare:workers'
import { DEFAULT_RATE_LIMIT_FLUSH_SECONDS, type Env } from '../config'
import { Reservations } from './in-flight'
import {
  admit,
  clientForgetAt,
  isClean,
  miss,
  prefixForgetAt,
  strained,
  type ClientRecord,
  type LimitPolicy,
} from './limits'
import { countMiss, missesForgetAt, penaltyEnd, type MissState } from './misses'
import type { RateVerdict } from './windows'
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
/** Storage key of the prefix's own misses. Stable across versions. */
export const PREFIX_RECORD_KEY = 'prefix'

/** A lost write loses at most the counts of one interval, which the loss bound allows anyway. */
const UNCONFIRMED = { allowUnconfirmed: true } as const

/**
 * Lone requests are held in memory with no alarm to clear them: a prefix that many clients ask
 * once (a /48 has 65,536 /64s) is swept of the lapsed ones when it holds this many, then twice
 * as many as were left.
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
 * A wide prefix's answer to a miss, asked before the miss is answered: whether it may be
 * answered (counted; the miss past the budget is the breach, and answered), and when the wide
 * prefix's penalty ends (ms; 0: not penalized).
 */
export interface WideAnswer {
  counted: boolean
  penaltyUntil: number
}

/** When a miss is reported, the penalties it leaves (ms since the epoch; 0: none). */
export interface MissReport {
  clientPenaltyUntil: number
  prefixPenaltyUntil: number
}

/** What the Worker knows of a request beside its client key (docs/rate-limits.md). */
export interface RequestStanding {
  /** The client is in an exempt network (exempt-networks.ts). */
  exempt?: boolean
  /**
   * Admissions of this object that the calling isolate has since answered with anything but a
   * miss: their reservations are given back at once instead of lapsing (in-flight.ts).
   */
  answered?: AnsweredAdmission[]
  /**
   * The calling isolate answered the client lately, mostly with exports (known-clients.ts): if
   * this object holds no record of it, it is a clean neighbour, not a stranger.
   */
  vouched?: boolean
}

/** An admission answered with anything but a miss: whose, and its `reservedAt`. */
export interface AnsweredAdmission {
  clientKey: string
  reservedAt: number
  exempt: boolean
}

/** What a miss report says beside the client key. */
export interface MissContext extends RequestStanding {
  /** The admission's `reservedAt`, whose reservation the miss takes over. */
  reservedAt?: number
  /** When the client's wide prefix is penalized until, as its object just said (ms); 0: not. */
  widePenaltyUntil?: number
  /**
   * The request was not answered as a miss after all (its wide prefix refused it): its
   * reservation is given back, the wide prefix's penalty learnt, and nothing is counted.
   */
  refused?: boolean
}

/** The request counter of one prefix's clients (docs/api.md#rate-limits), and their miss limit. */
export class PrefixRateLimiter extends DurableObject<Env> {
  /** Memory is the truth while the instance lives; storage trails it. */
  private readonly records = new Map<string, Entry<ClientRecord | MissState>>()
  /** When the alarm is due, as this instance set it or as storage implies; null: none. */
  private alarmDue: number | null = null
  private flushMs = DEFAULT_RATE_LIMIT_FLUSH_SECONDS * 1000
  /** Records held at which memory is next swept of lapsed ones that storage does not hold. */
  private sweepAt = SWEEP_FROM
  /** Possible misses of admitted requests, per record key. */
  private readonly reservations = new Reservations()
  /** When the wide prefix's penalty ends, as the last miss report said (ms); memory only. */
  private widePenaltyUntil = 0
  /**
   * How long a lapsed clean client is still known (ms): the longest window of the policy last
   * seen. Its record stays in memory that long (never in storage), for `lapsedClient`.
   */
  private knownAfterLapseMs = 3600_000

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    for (const [key, value] of ctx.storage.kv.list<Stored<ClientRecord | MissState>>()) {
      const { forgetAt, ...data } = value
      this.records.set(key, { data, forgetAt, storage: loaded(forgetAt) })
      // Whoever stored it set an alarm at or before its lapse.
      if (this.alarmDue === null || forgetAt < this.alarmDue) this.alarmDue = forgetAt
    }
  }

  /**
   * Counts a request of `clientKey` against its windows if it is admitted: if all have room,
   * neither the client, its prefix nor its wide prefix is penalized for misses (or the client is
   * let through, limits.ts), and the misses it could add stay within the budgets. Refusals count
   * nowhere. `flushSeconds` is the flush interval (`RATE_LIMIT_FLUSH_SECONDS`).
   */
  hit(
    clientKey: string,
    policy: LimitPolicy,
    flushSeconds = DEFAULT_RATE_LIMIT_FLUSH_SECONDS,
    standing: RequestStanding = {},
  ): RateVerdict {
    const now = Date.now()
    this.flushMs = flushSeconds * 1000
    const key = CLIENT_RECORD_PREFIX + clientKey
    const exempt = standing.exempt === true
    this.knownAfterLapseMs = Math.max(...policy.rules.map((rule) => rule.periodSeconds)) * 1000
    for (const done of standing.answered ?? []) this.giveBack(done)
    const live = this.live<ClientRecord>(key, now)
    const lapsed = live === undefined ? this.lapsedClean(key, now) : undefined
    const prefix = this.prefix(now)
    const { verdict, client } = admit(live, prefix, policy, now, {
      exempt,
      widePenaltyUntil: this.widePenaltyUntil,
      clientInFlight: this.reservations.inFlight(key, now),
      prefixInFlight: this.reservations.inFlight(PREFIX_RECORD_KEY, now),
      vouched: standing.vouched === true,
      ...(lapsed === undefined ? {} : { lapsedClient: lapsed }),
    })
    if (client !== null) {
      const kept = !exempt && policy.misses.enabled && strained(prefix, policy.misses, now)
      this.change(key, client, clientForgetAt(client, policy), kept ? 'kept' : 'request', now)
    }
    if (!verdict.admitted || !policy.misses.enabled) return verdict
    this.reservations.reserve(key, now)
    if (!exempt) this.reservations.reserve(PREFIX_RECORD_KEY, now)
    return { ...verdict, reservedAt: now }
  }

  /**
   * Counts a miss (an answer of 404, 410 or 400 `invalid_id` to an admitted request) for
   * `clientKey` and, unless it is exempt, for the prefix, in place of the reservation its
   * admission made; learns the wide prefix's penalty; returns the penalties after it.
   */
  miss(
    clientKey: string,
    policy: LimitPolicy,
    flushSeconds = DEFAULT_RATE_LIMIT_FLUSH_SECONDS,
    context: MissContext = {},
  ): MissReport {
    const now = Date.now()
    this.flushMs = flushSeconds * 1000
    const key = CLIENT_RECORD_PREFIX + clientKey
    const exempt = context.exempt === true
    for (const done of context.answered ?? []) this.giveBack(done)
    if (context.reservedAt !== undefined) {
      this.giveBack({ clientKey, reservedAt: context.reservedAt, exempt })
    }
    this.widePenaltyUntil = Math.max(this.widePenaltyUntil, context.widePenaltyUntil ?? 0)
    const before = this.live<ClientRecord>(key, now)
    const prefixBefore = this.prefix(now)
    const after = context.refused === true ? null : miss(before, prefixBefore, policy, now)
    if (after === null) return { clientPenaltyUntil: 0, prefixPenaltyUntil: 0 }
    const wasStrained = !exempt && strained(prefixBefore, policy.misses, now)
    const clientBreach = penaltyEnd(after.client.misses, now) > penaltyEnd(before?.misses, now)
    const forgetClient = clientForgetAt(after.client, policy)
    const clientChange = clientBreach ? 'breach' : wasStrained ? 'kept' : 'miss'
    this.change(key, after.client, forgetClient, clientChange, now)
    const clientPenaltyUntil = penaltyEnd(after.client.misses, now)
    if (exempt) return { clientPenaltyUntil, prefixPenaltyUntil: 0 }
    const prefixBreach = penaltyEnd(after.prefix, now) > penaltyEnd(prefixBefore, now)
    const forgetPrefix = prefixForgetAt(after.prefix, policy)
    this.change(
      PREFIX_RECORD_KEY,
      after.prefix,
      forgetPrefix,
      prefixBreach ? 'breach' : 'miss',
      now,
    )
    if (!wasStrained && strained(after.prefix, policy.misses, now)) this.keepClean(now)
    return { clientPenaltyUntil, prefixPenaltyUntil: penaltyEnd(after.prefix, now) }
  }

  /**
   * Asked before a miss of a client of this wide prefix (this object is named by it) is answered:
   * counts it, unless the wide prefix is penalized, in which case the miss is not answered and
   * counts nowhere. Each call decides with no `await`, so however many misses of the block arrive
   * together, at most its budget and the breach are answered in its window.
   */
  wideMiss(policy: LimitPolicy, flushSeconds = DEFAULT_RATE_LIMIT_FLUSH_SECONDS): WideAnswer {
    const now = Date.now()
    this.flushMs = flushSeconds * 1000
    const settings = policy.misses
    if (!settings.enabled) return { counted: true, penaltyUntil: 0 }
    const before = this.prefix(now)
    const penalized = penaltyEnd(before, now)
    if (penalized !== 0) return { counted: false, penaltyUntil: penalized }
    const after = countMiss(before, settings.wide, settings, now)
    const breach = penaltyEnd(after, now) !== 0
    const forgetAt = missesForgetAt(after, settings.wide)
    this.change(PREFIX_RECORD_KEY, after, forgetAt, breach ? 'breach' : 'miss', now)
    return { counted: true, penaltyUntil: penaltyEnd(after, now) }
  }

  /** Writes what memory holds ahead of storage, and deletes what has lapsed. */
  override alarm(): void {
    const now = Date.now()
    this.alarmDue = null
    let wrote = false
    let deletes: string[] = []
    for (const [key, entry] of this.records) {
      const step = alarmStep(entry.storage, entry.forgetAt, now, this.flushMs)
      if (step === 'forget' || step === 'unstore') {
        if (entry.storage.storedForgetAt !== 0) deletes.push(key)
        if (step === 'forget' && !this.keptInMemory(key, entry, now)) this.records.delete(key)
        else entry.storage = { ...entry.storage, storedForgetAt: 0, dirty: false }
      } else if (step === 'settle') {
        entry.storage = { ...entry.storage, dirty: false }
      } else if (step === 'write') {
        this.write(key, entry, now)
        wrote = true
      }
    }
    const storedAts = [...this.records.values()].map((entry) => entry.storage.storedForgetAt)
    if (deletes.length > 0 && storedAts.every((at) => at === 0)) {
      // Nothing stored is needed any more: one call empties the object's storage. (It takes no
      // `allowUnconfirmed`; in an alarm no answer waits for it anyway.)
      void this.ctx.storage.deleteAll()
      deletes = []
    }
    if (deletes.length > 0) void this.ctx.storage.delete(deletes, UNCONFIRMED)
    this.setAlarm(nextAlarm(wrote, storedAts, now, this.flushMs))
  }

  /**
   * Writes the clean clients' records that storage does not hold yet, as the prefix becomes
   * strained: they are what lets those clients through, and an object nobody asks (its
   * harvesters refused from the isolates' memory) is soon evicted. Rows only in such prefixes.
   */
  private keepClean(now: number): void {
    for (const [key, entry] of this.records) {
      if (!key.startsWith(CLIENT_RECORD_PREFIX) || entry.forgetAt <= now) continue
      const { storage } = entry
      const unwritten = storage.unwrittenRequests + storage.unwrittenMisses > 0
      if (storage.dirty || !unwritten || !isClean(entry.data as ClientRecord, now)) continue
      this.write(key, entry, now)
      if (this.alarmDue === null || this.alarmDue > entry.forgetAt) this.setAlarm(entry.forgetAt)
    }
  }

  /** Gives back the reservations an admission made. */
  private giveBack(admission: AnsweredAdmission): void {
    this.reservations.release(CLIENT_RECORD_PREFIX + admission.clientKey, admission.reservedAt)
    if (!admission.exempt) this.reservations.release(PREFIX_RECORD_KEY, admission.reservedAt)
  }

  /** The lapsed record of a client at `key` that memory still holds, if it was clean. */
  private lapsedClean(key: string, now: number): ClientRecord | undefined {
    const entry = this.records.get(key)
    return entry !== undefined && this.keptInMemory(key, entry, now)
      ? (entry.data as ClientRecord)
      : undefined
  }

  /**
   * Whether memory keeps a lapsed record (storage never does): a clean client's, for as long as
   * it is still known after it lapsed.
   */
  private keptInMemory(key: string, entry: Entry<ClientRecord | MissState>, now: number): boolean {
    return (
      key.startsWith(CLIENT_RECORD_PREFIX) &&
      entry.forgetAt <= now &&
      now < entry.forgetAt + this.knownAfterLapseMs &&
      isClean(entry.data as ClientRecord, now)
    )
  }

  /** The record at `key` if it has not lapsed at `now`. */
  private live<T extends ClientRecord | MissState>(key: string, now: number): T | undefined {
    const entry = this.records.get(key)
    return entry !== undefined && now < entry.forgetAt ? (entry.data as T) : undefined
  }

  private prefix(now: number): MissState | undefined {
    return this.live<MissState>(PREFIX_RECORD_KEY, now)
  }

  /** Puts a changed record in memory and applies its storage plan. */
  private change(
    key: string,
    data: ClientRecord | MissState,
    forgetAt: number,
    change: Change,
    now: number,
  ): void {
    const existing = this.records.get(key)
    if (existing === undefined && this.records.size >= this.sweepAt) this.sweep(now)
    // A lapsed record starts over; only the version storage may still hold of it matters.
    const storage =
      existing === undefined
        ? UNSTORED
        : existing.forgetAt > now
          ? existing.storage
          : { ...UNSTORED, storedForgetAt: existing.storage.storedForgetAt }
    const entry = { data, forgetAt, storage }
    this.records.set(key, entry)
    const plan = planChange(storage, change, now, forgetAt, this.alarmDue, this.flushMs)
    entry.storage = plan.storage
    if (plan.write) this.write(key, entry, now)
    if (plan.setAlarm !== undefined) this.setAlarm(plan.setAlarm)
  }

  /** Forgets lapsed records that storage does not hold and no alarm will visit. */
  private sweep(now: number): void {
    for (const [key, entry] of this.records) {
      const lapsed = entry.forgetAt <= now && entry.storage.storedForgetAt === 0
      if (lapsed && !entry.storage.dirty && !this.keptInMemory(key, entry, now)) {
        this.records.delete(key)
      }
    }
    this.sweepAt = Math.max(SWEEP_FROM, 2 * this.records.size)
  }

  private write(key: string, entry: Entry<ClientRecord | MissState>, now: number): void {
    void this.ctx.storage.put(key, { ...entry.data, forgetAt: entry.forgetAt }, UNCONFIRMED)
    entry.storage = writtenAt(now, entry.forgetAt)
  }

  private setAlarm(at: number | null): void {
    if (at === null || at === this.alarmDue) return
    this.alarmDue = at
    void this.ctx.storage.setAlarm(at, UNCONFIRMED)
  }
}
