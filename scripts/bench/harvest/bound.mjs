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

/** How many standard errors apart two refusal shares must be to count as a leak. */
const LEAK_Z = 3

/**
 * How far apart two shares of requests refused are, in standard errors (a two-proportion
 * z-test; 0 when nothing can differ). `a` and `b` are `{ requests, refused }`.
 */
function pooledZ(a, b) {
  if (a.requests === 0 || b.requests === 0) return 0
  const pooled = (a.refused + b.refused) / (a.requests + b.requests)
  if (pooled === 0 || pooled === 1) return 0
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.requests + 1 / b.requests))
  return (a.refused / a.requests - b.refused / b.requests) / se
}

/**
 * The same comparison made within strata, each one address at one moment (a burst), and added
 * up (the Cochran-Mantel-Haenszel statistic, in standard errors): whether a live ID is refused
 * at another rate than a guess sent from the same client at the same time. A refusal may follow
 * a client's history (its misses, the isolate that saw them); within a stratum that history is
 * the same for both, so only the ID can make them differ. `strata` is an iterable of
 * `{ live, guesses }`, each `{ requests, refused }`.
 */
function withinZ(strata) {
  let excess = 0
  let variance = 0
  for (const { live, guesses } of strata) {
    const n = live.requests + guesses.requests
    const refused = live.refused + guesses.refused
    if (live.requests === 0 || guesses.requests === 0 || refused === 0 || refused === n) continue
    excess += live.refused - (live.requests * refused) / n
    variance += (live.requests * guesses.requests * refused * (n - refused)) / (n * n * (n - 1))
  }
  return variance === 0 ? 0 : excess / Math.sqrt(variance)
}

/**
 * The IDs the guesses of a run settled: each answered `200` or a miss settles its ID; a refused
 * guess settles nothing, unless requests for IDs known to be live were refused at another rate
 * than the guesses (almost all dead), over the run (`pooledZ`) or within an address at one
 * moment (`withinZ` over `strata`): then a refusal says "probably dead" as a `404` would, and
 * the refused guesses count as settled too. `live` and `guesses` are `{ requests, answered,
 * refused }`.
 */
export function settledIds({ live, guesses, strata = [] }) {
  const z = { pooled: pooledZ(live, guesses), within: withinZ(strata) }
  const leak = Math.abs(z.pooled) > LEAK_Z || Math.abs(z.within) > LEAK_Z
  return { leak, z, settled: guesses.answered + (leak ? guesses.refused : 0) }
}
