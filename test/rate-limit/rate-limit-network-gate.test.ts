/**
 * Admission as pure code (docs/rate-limits.md#bursts): a network's burst room in one isolate
 * (network-gate.ts), and how a client's object weighs what the isolate says of the network, the
 * clean clients of a penalized network and the settling of requests (limits.ts). The same rules
 * through HTTP: rate-limit-bursts-http.test.ts, rate-limit-liveness-http.test.ts and
 * rate-limit-neighbours-http.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { admit, clientMiss, NetworkGate, networkMiss } from '../../src/rate-limit/testing'
import { missSettings } from '../../src/rate-limit'
import type { ClientRecord, LimitPolicy, MissState } from '../support/limiter-shapes'

const T0 = Date.UTC(2030, 0, 1)
const POLICY: LimitPolicy = {
  rules: [
    { name: 'short', limit: 100, periodSeconds: 60 },
    { name: 'long', limit: 1000, periodSeconds: 3600 },
  ],
  misses: {
    ...missSettings({} as Cloudflare.Env),
    client: { budget: 3, windowSeconds: 600 },
    prefix: { budget: 5, windowSeconds: 600 },
  },
}
const OPEN = { penaltyUntil: 0, passClosed: false, fullUntil: 0, strained: false }

describe('a network burst room', () => {
  it('holds the budget and the breach in flight, and gives a place back when answered', () => {
    const gate = new NetworkGate()
    const slots = Array.from({ length: 6 }, () => gate.enter('n', 5, T0))
    expect(slots.every((s) => s.hint.fullUntil === 0)).toBe(true)
    const full = gate.enter('n', 5, T0)
    expect(full.hint.fullUntil).toBe(T0 + 10_000)
    slots[0]!.slot.release()
    slots[0]!.slot.release()
    expect(gate.enter('n', 5, T0).hint.fullUntil).toBe(0)
    expect(gate.enter('n', 5, T0).hint.fullUntil).toBeGreaterThan(0)
    expect(gate.enter('other', 5, T0).hint.fullUntil).toBe(0)
  })

  it('shrinks with the misses its object counted, to one at a time once spent', () => {
    const gate = new NetworkGate()
    gate.counted('n', { misses: 4, resetAt: T0 + 600_000, penaltyUntil: 0, passClosed: false }, T0)
    gate.enter('n', 5, T0)
    gate.enter('n', 5, T0)
    expect(gate.enter('n', 5, T0).hint.fullUntil).toBeGreaterThan(0)
    gate.counted(
      'n',
      { misses: 6, resetAt: T0 + 600_000, penaltyUntil: T0 + 60_000, passClosed: false },
      T0,
    )
    const spent = new NetworkGate()
    spent.counted('n', { misses: 7, resetAt: T0 + 600_000, penaltyUntil: 0, passClosed: false }, T0)
    const one = spent.enter('n', 5, T0)
    expect(one.hint).toMatchObject({ fullUntil: 0, strained: true })
    expect(spent.enter('n', 5, T0).hint.fullUntil).toBeGreaterThan(0)
    // The window's end gives the room back.
    one.slot.release()
    expect(spent.enter('n', 5, T0 + 600_000).hint).toMatchObject({ fullUntil: 0, strained: false })
  })

  it('keeps learning from its object after counting a miss the object could not', () => {
    const gate = new NetworkGate()
    const budget = { budget: 5, windowSeconds: 600 }
    gate.uncounted('n', T0 + 1000, budget, 60_000)
    // The object's window started before this isolate's first (uncounted) miss.
    gate.counted(
      'n',
      { misses: 4, resetAt: T0 + 600_000, penaltyUntil: 0, passClosed: false },
      T0 + 2000,
    )
    gate.enter('n', 5, T0 + 2000)
    expect(gate.enter('n', 5, T0 + 2000).hint.fullUntil).toBeGreaterThan(0)
  })

  it('counts a miss its object could not count, and passes on the penalty it learnt', () => {
    const gate = new NetworkGate()
    const budget = { budget: 5, windowSeconds: 600 }
    for (let i = 0; i < 5; i++) gate.uncounted('n', T0, budget, 60_000)
    expect(gate.enter('n', 5, T0).hint).toMatchObject({ strained: true, penaltyUntil: 0 })
    gate.uncounted('n', T0, budget, 60_000)
    expect(gate.enter('n', 5, T0).hint.penaltyUntil).toBe(T0 + 60_000)
    gate.counted(
      'n',
      { misses: 6, resetAt: T0 + 600_000, penaltyUntil: T0 + 60_000, passClosed: true },
      T0,
    )
    expect(gate.enter('n', 5, T0 + 1000).hint).toMatchObject({
      penaltyUntil: T0 + 60_000,
      passClosed: true,
    })
  })
})

/** A client with `hits` requests and `misses` misses, all settled (made a minute before T0). */
function record(hits: number, misses: number): ClientRecord {
  let client: ClientRecord | undefined
  const then = T0 - 60_000
  for (let i = 0; i < hits + misses; i++) client = admit(client, POLICY, then).client!
  for (let i = 0; i < misses; i++) client = clientMiss(client, POLICY, then)!
  // A request 11 s later marks them settled.
  return admit(client, POLICY, then + 11_000).client!
}

describe('admission under what the isolate knows of the network', () => {
  it('refuses a stranger while the room is full, never a clean client, never an exempt one', () => {
    const full = { ...OPEN, fullUntil: T0 + 10_000 }
    expect(admit(undefined, POLICY, T0, { network: full }).verdict).toMatchObject({
      admitted: false,
      inFlight: 'prefix',
      retryAfterSeconds: 10,
    })
    expect(admit(record(4, 0), POLICY, T0, { network: full }).verdict).toMatchObject({
      admitted: true,
      clean: true,
    })
    expect(admit(undefined, POLICY, T0, { network: full, exempt: true }).verdict.admitted).toBe(
      true,
    )
    expect(admit(undefined, POLICY, T0, { network: full, vouched: true }).verdict.admitted).toBe(
      true,
    )
  })

  it('takes requests whose misses may still be read for unsettled: a fresh burst is not clean', () => {
    let client: ClientRecord | undefined
    for (let i = 0; i < 50; i++) {
      const { verdict, client: next } = admit(client, POLICY, T0 + i)
      expect(verdict.clean).toBeUndefined()
      client = next!
    }
    expect(admit(client, POLICY, T0 + 9_000).verdict.clean).toBeUndefined()
    // Ten seconds after the last, their misses are all counted: none, so it is clean.
    expect(admit(client, POLICY, T0 + 10_050).verdict.clean).toBe(true)
  })

  it("settles a steady client's requests within two settling times", () => {
    let client: ClientRecord | undefined
    for (let s = 0; s < 20; s++) client = admit(client, POLICY, T0 + s * 1000).client!
    // Asking every second, its requests of 10 s ago and more are settled by now.
    expect(admit(client, POLICY, T0 + 20_000).verdict.clean).toBe(true)
  })
})

describe('clean clients of a penalized network', () => {
  /** A network that breached its budget of 5 at T0. */
  function penalized(): MissState {
    let prefix: MissState | undefined
    for (let i = 0; i < 6; i++) prefix = networkMiss(prefix, POLICY, T0, false)!
    return prefix!
  }
  const penalty = (prefix: MissState, passClosed = false) => ({
    network: { ...OPEN, penaltyUntil: prefix.penaltyUntil, passClosed, strained: true },
  })

  it('lets through a known client that mostly finds exports, not a stranger or a guesser', () => {
    const hint = penalty(penalized())
    expect(admit(record(4, 1), POLICY, T0, hint).verdict.admitted).toBe(true)
    expect(admit(undefined, POLICY, T0, hint).verdict).toMatchObject({ penalty: 'prefix' })
    // Its misses are half of its requests (the last one, a hit, included).
    expect(admit(record(1, 2), POLICY, T0, hint).verdict).toMatchObject({ penalty: 'prefix' })
  })

  it("counts only clean clients' misses against their pass, and lengthens the penalty for every one", () => {
    let prefix = penalized()
    const first = prefix.penaltyUntil
    for (let i = 0; i < 3; i++) prefix = networkMiss(prefix, POLICY, T0, false)!
    expect(prefix.missesInPenalty ?? 0).toBe(0)
    // 9 misses against a budget of 5 an (600 s) window: paid for 9/5 windows after its start.
    expect(prefix.penaltyUntil).toBe(Math.max(first, T0 + 1080_000))
    for (let i = 0; i < 4; i++) prefix = networkMiss(prefix, POLICY, T0, true)!
    expect(prefix.missesInPenalty).toBe(4)
    expect(admit(record(4, 0), POLICY, T0, penalty(prefix, true)).verdict).toMatchObject({
      penalty: 'prefix',
    })
  })
})
