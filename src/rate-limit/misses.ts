/**
 * The miss limit (docs/rate-limits.md#misses): pure functions of a party's miss state, its budget
 * and the time. No storage, no HTTP: the rate-limit object and the bench's harvest simulation
 * drive the same code.
 *
 * A miss is an answer that says no export is here (404, 410, 400 `invalid_id`). A plugin asks for
 * the ID a person typed and rarely misses; a harvester guessing six digits misses about 1,500
 * times per live ID. So misses get a budget of their own, far below what harvesting needs, per
 * client and per wider prefix (client-key.ts). A miss past a budget is a breach: the party is
 * refused every request, hits included, for a penalty that doubles on each breach up to the
 * longest. Refusing hits too is what makes it work: a 200 among 429s would still tell which IDs
 * are live.
 *
 * A breach is remembered for one miss window after its penalty ends: a party that breaches again
 * within it gets the doubled penalty; one that stays quiet that long starts over at the first.
 * Coming back later gains nothing, since the wait costs more than a budget buys. So nothing of a
 * party is kept past its penalty plus one miss window (a day and an hour at the defaults).
 */

/** The miss limit's settings: budgets and windows per client and prefix, the penalties. */
export interface MissSettings {
  /** False switches the miss limit off: misses count nowhere, nobody is penalized. */
  enabled: boolean
  client: MissBudget
  prefix: MissBudget
  /** The penalty of a first breach, in seconds. */
  firstPenaltySeconds: number
  /** The longest penalty, in seconds: doubling stops here. */
  longestPenaltySeconds: number
}

/** At most `budget` misses per `windowSeconds`; the miss after them is a breach. */
export interface MissBudget {
  budget: number
  windowSeconds: number
}

/** A client IPv4 address or IPv6 /64: a plugin server that mistypes now and then stays far below. */
export const DEFAULT_CLIENT_MISS_BUDGET: MissBudget = { budget: 30, windowSeconds: 3600 }
/**
 * An IPv4 /24 or IPv6 /48: room for dozens of servers of one host (10 misses an hour each), and
 * a few hundred guesses an hour, where one live ID takes about 1,500 at 600 live of 900,000.
 */
export const DEFAULT_PREFIX_MISS_BUDGET: MissBudget = { budget: 300, windowSeconds: 3600 }
export const DEFAULT_FIRST_PENALTY_SECONDS = 15 * 60
export const DEFAULT_LONGEST_PENALTY_SECONDS = 24 * 3600

/** The defaults of every setting (the README's settings table). */
export const DEFAULT_MISS_SETTINGS: MissSettings = {
  enabled: true,
  client: DEFAULT_CLIENT_MISS_BUDGET,
  prefix: DEFAULT_PREFIX_MISS_BUDGET,
  firstPenaltySeconds: DEFAULT_FIRST_PENALTY_SECONDS,
  longestPenaltySeconds: DEFAULT_LONGEST_PENALTY_SECONDS,
}

/** What is kept of a party's misses. Times are ms since the epoch; 0 is "none". */
export interface MissState {
  /** Misses in the current window. */
  count: number
  /** When the current window resets; 0 before the first miss. */
  resetAt: number
  /** Breaches remembered: the last penalty was `first * 2^(breaches - 1)`, at most the longest. */
  breaches: number
  /** When the current (or last) penalty ends; 0 when none was ever given. */
  penaltyUntil: number
  /**
   * Misses counted since the last breach: while penalized, those of the clean clients served
   * through the penalty (limits.ts). Absent: none.
   */
  missesInPenalty?: number
}

/** The state of a party that never missed. */
export const NO_MISSES: MissState = { count: 0, resetAt: 0, breaches: 0, penaltyUntil: 0 }

/** When the party's penalty ends, or 0 when it is not penalized at `now`. */
export function penaltyEnd(state: MissState | undefined, now: number): number {
  return state !== undefined && now < state.penaltyUntil ? state.penaltyUntil : 0
}

/** Misses counted in the party's current miss window at `now`. */
export function missesInWindow(state: MissState | undefined, now: number): number {
  return state !== undefined && now < state.resetAt ? state.count : 0
}

/** The penalty of the `breaches`-th remembered breach, in ms. */
export function penaltyMs(breaches: number, settings: MissSettings): number {
  const doubled = settings.firstPenaltySeconds * 2 ** Math.min(Math.max(0, breaches - 1), 30)
  return Math.min(doubled, settings.longestPenaltySeconds) * 1000
}

/**
 * The state after a miss at `now`. A miss past the budget is a breach: the penalty starts,
 * doubled if the last breach is still remembered. The window runs on through the penalty, so a
 * miss after it, while the window lasts, is another breach at once: waiting out a penalty buys
 * no new budget, only the window's end does. A miss while penalized (requests admitted before
 * the breach was known, or the clean clients a network's penalty lets through, limits.ts) is
 * counted, in `missesInPenalty` too, and is a debt: the penalty lasts at least until the
 * window's misses, spread at the budget's rate from the window's start, are paid for
 * (`debtEnd`). So however many misses a burst gets answered, the average over a window and its
 * penalty stays within the budget.
 */
export function countMiss(
  state: MissState | undefined,
  budget: MissBudget,
  settings: MissSettings,
  now: number,
): MissState {
  const current = state ?? NO_MISSES
  const inWindow = now < current.resetAt
  const count = (inWindow ? current.count : 0) + 1
  const resetAt = inWindow ? current.resetAt : now + budget.windowSeconds * 1000
  if (penaltyEnd(current, now) !== 0) {
    const missesInPenalty = (current.missesInPenalty ?? 0) + 1
    const penaltyUntil = Math.max(current.penaltyUntil, debtEnd(count, resetAt, budget))
    return {
      ...current,
      count,
      resetAt,
      breaches: remembered(current, budget, now),
      penaltyUntil,
      missesInPenalty,
    }
  }
  if (count <= budget.budget) {
    return { ...current, count, resetAt, breaches: remembered(current, budget, now) }
  }
  const breaches = remembered(current, budget, now) + 1
  const penaltyUntil = now + penaltyMs(breaches, settings)
  return { count, resetAt, breaches, penaltyUntil }
}

/**
 * When `count` misses of a window that resets at `resetAt` are paid for at the budget's rate,
 * counted from the window's start (ms): `count / budget` windows after it.
 */
export function debtEnd(count: number, resetAt: number, budget: MissBudget): number {
  const windowMs = budget.windowSeconds * 1000
  return resetAt - windowMs + Math.ceil((count * windowMs) / budget.budget)
}

/** Breaches still remembered at `now`: until a miss window after the last penalty ended. */
function remembered(state: MissState, budget: MissBudget, now: number): number {
  return now < state.penaltyUntil + budget.windowSeconds * 1000 ? state.breaches : 0
}

/**
 * When nothing of the state matters any more (ms): its window has lapsed, and its penalty and
 * the memory of its breaches have run out. 0 for a state that holds nothing.
 */
export function missesForgetAt(state: MissState | undefined, budget: MissBudget): number {
  if (state === undefined) return 0
  const breachMemory = state.breaches > 0 ? state.penaltyUntil + budget.windowSeconds * 1000 : 0
  return Math.max(state.resetAt, breachMemory)
}
