/**
 * Requests in flight as pure code (docs/rate-limits.md#bursts): the reservations an object
 * keeps (in-flight.ts), and how admission weighs them and the clean clients of a penalized
 * network (limits.ts). The same rules through HTTP: rate-limit-bursts-http.test.ts and
 * rate-limit-neighbours-http.test.ts.
 */
import { describe, expect, it } from 'vitest'
import {
  admit,
  DEFAULT_MISS_SETTINGS,
  miss,
  Reservations,
  RESERVATION_SECONDS,
  type ClientRecord,
  type LimitPolicy,
  type MissState,
} from '../../src/rate-limit/testing'

const T0 = Date.UTC(2030, 0, 1)
const POLICY: LimitPolicy = {
  rules: [
    { name: 'short', limit: 100, periodSeconds: 60 },
    { name: 'long', limit: 1000, periodSeconds: 3600 },
  ],
  misses: {
    ...DEFAULT_MISS_SETTINGS,
    client: { budget: 3, windowSeconds: 600 },
    prefix: { budget: 5, windowSeconds: 600 },
  },
}

describe('Reservations', () => {
  it('counts what a party reserved until it is given back or lapses', () => {
    const r = new Reservations()
    r.reserve('a', T0)
    r.reserve('a', T0 + 400)
    r.reserve('a', T0 + 1500)
    r.reserve('b', T0)
    expect(r.inFlight('a', T0 + 2000)).toEqual({
      count: 3,
      firstLapseAt: T0 + 1000 + RESERVATION_SECONDS * 1000,
    })
    r.release('a', T0 + 400)
    expect(r.inFlight('a', T0 + 2000).count).toBe(2)
    // The second they were made in, and RESERVATION_SECONDS more.
    expect(r.inFlight('a', T0 + 11_000).count).toBe(1)
    expect(r.inFlight('a', T0 + 12_000)).toEqual({ count: 0, firstLapseAt: 0 })
    expect(r.inFlight('b', T0).count).toBe(1)
  })

  it('gives back nothing for a reservation that lapsed or never was', () => {
    const r = new Reservations()
    r.reserve('a', T0 + 20_000)
    r.release('a', T0)
    r.release('nobody', T0)
    expect(r.inFlight('a', T0 + 20_000).count).toBe(1)
  })
})

describe('admission with requests in flight', () => {
  const inFlight = (count: number) => ({ count, firstLapseAt: T0 + 10_000 })

  it('admits while misses and reservations stay within the budget, and one at a time past it', () => {
    expect(
      admit(undefined, undefined, POLICY, T0, { clientInFlight: inFlight(3) }).verdict.admitted,
    ).toBe(true)
    const refused = admit(undefined, undefined, POLICY, T0, { clientInFlight: inFlight(4) }).verdict
    expect(refused).toMatchObject({ admitted: false, inFlight: 'client', retryAfterSeconds: 10 })
    let client: ClientRecord | undefined
    for (let i = 0; i < 3; i++) client = miss(client, undefined, POLICY, T0)!.client
    expect(
      admit(client, undefined, POLICY, T0, { clientInFlight: inFlight(0) }).verdict.admitted,
    ).toBe(true)
    expect(
      admit(client, undefined, POLICY, T0, { clientInFlight: inFlight(1) }).verdict,
    ).toMatchObject({
      admitted: false,
      inFlight: 'client',
    })
  })

  it('holds the network to its budget with every client’s reservations', () => {
    const verdict = admit(undefined, undefined, POLICY, T0, { prefixInFlight: inFlight(6) }).verdict
    expect(verdict).toMatchObject({ admitted: false, inFlight: 'prefix' })
    const exempt = admit(undefined, undefined, POLICY, T0, {
      prefixInFlight: inFlight(6),
      exempt: true,
    })
    expect(exempt.verdict.admitted).toBe(true)
  })

  it('refuses everyone of a penalized wide network but exempt clients', () => {
    const context = { widePenaltyUntil: T0 + 60_000 }
    expect(admit(undefined, undefined, POLICY, T0, context).verdict).toMatchObject({
      admitted: false,
      penalty: 'wide',
      retryAfterSeconds: 60,
    })
    expect(
      admit(undefined, undefined, POLICY, T0, { ...context, exempt: true }).verdict.admitted,
    ).toBe(true)
  })
})

describe('clean clients of a penalized network', () => {
  /** A network that breached its budget of 5 at T0. */
  function penalized(): MissState {
    let prefix: MissState | undefined
    for (let i = 0; i < 6; i++) prefix = miss(undefined, prefix, POLICY, T0)!.prefix
    return prefix!
  }

  /** A client with `hits` requests and `misses` misses in its windows. */
  function record(hits: number, misses: number): ClientRecord {
    let client: ClientRecord | undefined
    for (let i = 0; i < hits + misses; i++) client = admit(client, undefined, POLICY, T0).client!
    for (let i = 0; i < misses; i++) client = miss(client, undefined, POLICY, T0)!.client
    return client!
  }

  it('lets through a known client that mostly finds exports, not a stranger or a guesser', () => {
    const prefix = penalized()
    expect(admit(record(4, 1), prefix, POLICY, T0).verdict.admitted).toBe(true)
    expect(admit(undefined, prefix, POLICY, T0).verdict).toMatchObject({ penalty: 'prefix' })
    expect(admit(record(2, 2), prefix, POLICY, T0).verdict).toMatchObject({ penalty: 'prefix' })
  })

  it('stops letting them through once they missed a client budget since the breach', () => {
    let prefix = penalized()
    for (let i = 0; i < 3; i++) prefix = miss(undefined, prefix, POLICY, T0)!.prefix
    expect(prefix.missesInPenalty).toBe(3)
    expect(admit(record(4, 0), prefix, POLICY, T0).verdict.admitted).toBe(true)
    prefix = miss(undefined, prefix, POLICY, T0)!.prefix
    expect(admit(record(4, 0), prefix, POLICY, T0).verdict).toMatchObject({ penalty: 'prefix' })
  })
})
