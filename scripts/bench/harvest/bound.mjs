/**
 * What the miss limit promises a harvester, and what a run's answers told it:
 * - `missBudgets`: the budgets as the Worker's settings give them (what an attacker that read
 *   the docs knows);
 * - `harvestBound`: the bound as a formula of the networks held and those budgets, the one
 *   place to change when the limiter's levels change;
 * - `settledIds`: the IDs a run's answers settled, counting what refusals leak when they depend
 *   on whether the ID is live.
 */

/** The target: live IDs found an hour, per network the attacker holds. */
export const LIVE_PER_NETWORK_TARGET = 0.25

/**
 * The span a run's answers are averaged over (ms): the hour, and past it the penalty the hour led
 * to: until the latest end of its networks' penalties, as their objects store them
 * (`penaltyUntil`, ms), or of the waits its refusals told its `actors` (each one's `due` once the
 * hour is over; a client's own penalty, which its object alone holds, shows there). The bound is
 * an average over a miss window and its penalty (docs/rate-limits.md#networks-held-the-bound): a
 * burst's overshoot is counted, and the penalty lasts until it is paid for at the budget's rate,
 * so an hour alone would count a burst's answers without the hours they cost.
 */
export function averagedSpanMs(actors, start, durationMs, penaltyUntil = 0) {
  const dues = actors.flatMap((a) => (a.due === null ? [] : [a.due - start]))
  return Math.max(durationMs, penaltyUntil - start, ...dues)
}

/** The miss budgets of the service's settings, as an attacker that read the docs knows them. */
export function missBudgets(vars) {
  const parse = (text) => {
    if (text === undefined) return null
    const [budget, windowSeconds] = text.split('/').map(Number)
    return { budget, windowSeconds }
  }
  return {
    client: parse(vars.RATE_LIMIT_CLIENT_MISSES),
    prefix: parse(vars.RATE_LIMIT_PREFIX_MISSES),
    // The wide prefixes' budget (IPv4 /16, IPv6 /32), where the service has one.
    wide: parse(vars.RATE_LIMIT_WIDE_MISSES),
    firstPenaltySeconds: Number(vars.RATE_LIMIT_FIRST_PENALTY_SECONDS),
  }
}

/** A budget's misses per hour. */
const perHour = (b) => (b.budget * 3600) / b.windowSeconds

/**
 * The most IDs an attacker holding `networks` networks (IPv4 /24s, IPv6 /48s) of one wide block
 * may settle in an hour, and the live IDs among them: each network's miss budget, capped by the
 * wide block's budget where the settings have one. `liveFraction` is the share of IDs that are
 * live. The breaches (one miss each past a budget) are left out: a few per network an hour.
 */
export function harvestBound({ networks, budgets, liveFraction }) {
  const own = networks * perHour(budgets.prefix)
  const settledPerHour = budgets.wide === null ? own : Math.min(own, perHour(budgets.wide))
  return {
    settledPerHour,
    livePerHour: settledPerHour * liveFraction,
    formula:
      `${networks} x ${perHour(budgets.prefix)}` +
      (budgets.wide === null ? '' : `, at most ${perHour(budgets.wide)}`) +
      ` misses/hour x ${liveFraction.toPrecision(2)} live`,
  }
}

/**
 * Whether two shares of requests refused differ beyond chance: a two-proportion z-test at 3
 * standard errors. `a` and `b` are `{ requests, refused }`.
 */
export function refusalsDiffer(a, b) {
  if (a.requests === 0 || b.requests === 0) return false
  const pooled = (a.refused + b.refused) / (a.requests + b.requests)
  if (pooled === 0 || pooled === 1) return false
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.requests + 1 / b.requests))
  return Math.abs(a.refused / a.requests - b.refused / b.requests) > 3 * se
}

/**
 * The IDs the guesses of a run settled: each answered `200` or a miss settles its ID; a refused
 * guess settles nothing, unless requests for IDs known to be live were refused at another rate
 * than the guesses (almost all dead): then a refusal says "probably dead" as a `404` would, and
 * the refused guesses count as settled too. `live` and `guesses` are `{ requests, answered,
 * refused }`.
 */
export function settledIds({ live, guesses }) {
  const leak = refusalsDiffer(live, guesses)
  return { leak, settled: guesses.answered + (leak ? guesses.refused : 0) }
}
