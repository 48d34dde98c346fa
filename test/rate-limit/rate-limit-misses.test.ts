import { describe, expect, it } from 'vitest'
import { admit, clientForgetAt, clientMiss, networkMiss } from '../../src/rate-limit/testing'
import { missSettings } from '../../src/rate-limit/index'
import type { ClientRecord, LimitPolicy, MissSettings, MissState } from '../support/limiter-shapes'

const T0 = Date.UTC(2030, 0, 1)
const MIN = 60_000
const SETTINGS: MissSettings = {
  enabled: true,
  client: { budget: 3, windowSeconds: 600 },
  prefix: { budget: 5, windowSeconds: 600 },
  firstPenaltySeconds: 60,
  longestPenaltySeconds: 300,
}
const POLICY: LimitPolicy = {
  rules: [
    { name: 'short', limit: 10, periodSeconds: 60 },
    { name: 'long', limit: 100, periodSeconds: 3600 },
  ],
  misses: SETTINGS,
}

/** A client's misses after `n` more at `now`, from `state`, as its object counts them. */
function missTimes(state: MissState | undefined, n: number, now: number): MissState | undefined {
  let client: ClientRecord | undefined = state === undefined ? undefined : recordOf(state)
  for (let i = 0; i < n; i++) client = clientMiss(client, POLICY, now)!
  return client?.misses
}

/** A client's record holding only `misses`, its windows lapsed. */
function recordOf(misses: MissState | undefined): ClientRecord {
  return misses === undefined ? { windows: {} } : { windows: {}, misses }
}

/** When the penalty of `state` ends, or 0 when it is not penalized at `now`. */
function penaltyEnd(state: MissState | undefined, now: number): number {
  return state !== undefined && now < state.penaltyUntil ? state.penaltyUntil : 0
}

/** When the client's object may forget a client holding only `state`. */
function missesForgetAt(state: MissState | undefined): number {
  return clientForgetAt(recordOf(state), POLICY)
}

/** Misses of one party at `now`, one at a time, until one starts a penalty. */
function untilBreach(state: MissState | undefined, now: number): MissState {
  do state = missTimes(state, 1, now)!
  while (penaltyEnd(state, now) === 0)
  return state
}

describe('the miss budget', () => {
  it('allows the budget and starts the first penalty at the miss past it', () => {
    const within = missTimes(undefined, 3, T0)
    expect(penaltyEnd(within, T0)).toBe(0)
    const past = missTimes(within, 1, T0)
    expect(penaltyEnd(past, T0)).toBe(T0 + 60_000)
    expect(past?.breaches).toBe(1)
  })

  it('breaches again at the first miss after a penalty, while the window runs', () => {
    const first = missTimes(undefined, 4, T0)
    const again = missTimes(first, 1, T0 + 60_000)
    expect(again?.breaches).toBe(2)
    expect(penaltyEnd(again, T0 + 60_000)).toBe(T0 + 60_000 + 120_000)
  })

  it('lengthens the penalty by each miss counted while penalized: the window pays for them', () => {
    // The 4th of 7 misses at once breaches; the other 3 come from requests already in flight.
    const state = missTimes(undefined, 7, T0)
    expect(state?.breaches).toBe(1)
    // 7 misses at a budget of 3 per 600 s: paid for 1,400 s after the window's start.
    expect(penaltyEnd(state, T0)).toBe(T0 + 1400_000)
    expect(missesForgetAt(state)).toBe(T0 + 1400_000 + 600_000)
  })

  it('forgets the misses of a lapsed window', () => {
    const early = missTimes(undefined, 3, T0)
    expect(penaltyEnd(missTimes(early, 1, T0 + 10 * MIN), T0 + 10 * MIN)).toBe(0)
  })

  it('doubles the penalty on each breach remembered, up to the longest', () => {
    let state: MissState | undefined
    let now = T0
    const penalties: number[] = []
    for (let breach = 0; breach < 5; breach++) {
      state = untilBreach(state, now)
      penalties.push((penaltyEnd(state, now) - now) / 1000)
      now = state!.penaltyUntil
    }
    expect(penalties).toEqual([60, 120, 240, 300, 300])
  })

  it('starts over at the first penalty after a quiet miss window past the last penalty', () => {
    const first = untilBreach(untilBreach(undefined, T0), T0 + 1 * MIN)
    expect(first?.breaches).toBe(2)
    const later = first!.penaltyUntil + 10 * MIN
    expect(missesForgetAt(first)).toBe(later)
    const again = missTimes(first, 4, later)
    expect(again?.breaches).toBe(1)
    expect(penaltyEnd(again, later)).toBe(later + 60_000)
  })
})

describe('admission with misses', () => {
  it('refuses hits while the client is penalized, without counting them', () => {
    let client = admit(undefined, POLICY, T0).client!
    for (let i = 0; i < 4; i++) client = clientMiss(client, POLICY, T0)!
    const { verdict, client: after } = admit(client, POLICY, T0 + 1000)
    expect(after).toBeNull()
    expect(verdict).toMatchObject({ admitted: false, penalty: 'client', retryAfterSeconds: 59 })
    // The windows as they stand: the one admitted request.
    expect(verdict.windows.map((w) => w.remaining)).toEqual([9, 99])
    expect(admit(client, POLICY, T0 + 60_000).verdict.admitted).toBe(true)
  })

  it('refuses a fresh client of a penalized prefix on its first request', () => {
    let prefix: MissState | undefined
    for (let i = 0; i < 6; i++) prefix = networkMiss(prefix, POLICY, T0, false)!
    const network = {
      penaltyUntil: prefix!.penaltyUntil,
      passClosed: false,
      fullUntil: 0,
      strained: true,
    }
    const { verdict } = admit(undefined, POLICY, T0, { network })
    expect(verdict).toMatchObject({ admitted: false, penalty: 'prefix', retryAfterSeconds: 60 })
  })

  it('counts nothing and refuses nobody for misses when switched off', () => {
    const off = { ...POLICY, misses: { ...SETTINGS, enabled: false } }
    expect(clientMiss(undefined, off, T0)).toBeNull()
    expect(networkMiss(undefined, off, T0, false)).toBeNull()
  })

  it('forgets a client once its windows and its misses have lapsed', () => {
    const client = admit(undefined, POLICY, T0).client!
    expect(clientForgetAt(client, POLICY)).toBe(T0 + 3600_000)
  })
})

describe('missSettings', () => {
  it("defaults to the documented settings (the README's settings table)", () => {
    expect(missSettings({} as Cloudflare.Env)).toEqual({
      enabled: true,
      client: { budget: 30, windowSeconds: 3600 },
      prefix: { budget: 300, windowSeconds: 3600 },
      firstPenaltySeconds: 900,
      longestPenaltySeconds: 86400,
    })
  })

  it('reads budgets, penalties and the switch', () => {
    const env = {
      RATE_LIMIT_MISSES: 'off',
      RATE_LIMIT_CLIENT_MISSES: '5/60',
      RATE_LIMIT_PREFIX_MISSES: '50/120',
      RATE_LIMIT_FIRST_PENALTY_SECONDS: '30',
      RATE_LIMIT_LONGEST_PENALTY_SECONDS: '600',
    } as Cloudflare.Env
    expect(missSettings(env)).toEqual({
      enabled: false,
      client: { budget: 5, windowSeconds: 60 },
      prefix: { budget: 50, windowSeconds: 120 },
      firstPenaltySeconds: 30,
      longestPenaltySeconds: 600,
    })
  })

  it.each([
    [{ RATE_LIMIT_MISSES: 'maybe' }, /RATE_LIMIT_MISSES/],
    [{ RATE_LIMIT_CLIENT_MISSES: '30' }, /client miss/],
    [{ RATE_LIMIT_FIRST_PENALTY_SECONDS: '-1' }, /RATE_LIMIT_FIRST_PENALTY_SECONDS/],
    [{ RATE_LIMIT_LONGEST_PENALTY_SECONDS: '60' }, /at least/],
  ])('refuses %o', (vars, message) => {
    expect(() => missSettings(vars as unknown as Cloudflare.Env)).toThrow(message)
  })
})
