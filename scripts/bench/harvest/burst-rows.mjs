/**
 * The rows of the mixed bursts (mixed-bursts.mjs): per block and number of networks, the IDs
 * settled and live IDs found in the hour against the bound's formula (bound.mjs), and the plugin
 * server beside them against the plugin server alone in the same run.
 */
import { row, verdict } from '../lib/rows.mjs'
import { LIVE_PER_NETWORK_TARGET } from './bound.mjs'
import {
  ADDRESSES_PER_NETWORK,
  LIVE_EVERY,
  NETWORK_BURST,
  otherStorageFailures,
  storageFailureCause,
} from './mixed-bursts.mjs'
import { PLUGIN_SERVED_TARGET, pct, served } from './shares.mjs'

const n = (x) => Math.round(x).toLocaleString('en-US')
const refusedShare = (t) => pct(t.requests === 0 ? 0 : t.refused / t.requests)
const z = (x) => x.toFixed(1)

/**
 * A run in which storage answered `503` for another reason than an unsettled lookup (counted as a
 * miss, and settled) measured something else than the limiter: its row fails, whatever its
 * figures, and says the cause the service logged (storageFailureCause).
 */
function burstVerdict(m, target) {
  return otherStorageFailures(m) > 0 ? 'FAIL' : verdict(m.livePerHour <= target)
}

/** The unsettled lookups' `503`s of a run, as the row says them. */
function unsettledNote(m) {
  const unsettled = m.storageFailureLog?.unsettled ?? 0
  if (unsettled === 0) return ''
  return `${n(unsettled)} unsettled-lookup 503${unsettled === 1 ? '' : 's'}, counted as misses and settled; `
}

/** @type {import('../sections.mjs').RowFunction} */
export function mixedBurstRows(r) {
  const h = r.harvest
  if (!h?.mixedBursts) return []
  const alone = served(h.callers.plugin)
  const rows = []
  for (const m of h.mixedBursts) {
    const target = LIVE_PER_NETWORK_TARGET * m.networks
    rows.push(
      row(
        'harvest',
        `IDs settled and live IDs found per hour (an hour, averaged with the penalty it led to), ` +
          `${m.what}, bursts of ${NETWORK_BURST} requests per network at once from ` +
          `${m.addressesPerNetwork ?? ADDRESSES_PER_NETWORK} addresses, 1 in ${LIVE_EVERY} ` +
          'for a live ID at random places',
        (otherStorageFailures(m) > 0
          ? `FAIL: ${n(otherStorageFailures(m))} answers were storage 503s (${storageFailureCause(m)}); `
          : '') +
          unsettledNote(m) +
          `${n(m.settledPerHour)} settled, ${m.livePerHour.toFixed(2)} live IDs/hour over ` +
          `${(m.spanMs / 3_600_000).toFixed(1)} h (refused: ` +
          `${refusedShare(m.live)} of live-ID requests, ${refusedShare(m.guesses)} of guesses` +
          (m.z === undefined
            ? ''
            : `, z ${z(m.z.pooled)} over the hour, ${z(m.z.within)} within an address and burst`) +
          `, ${m.leak ? 'a leak: refused guesses count as settled' : 'no leak'}; ` +
          `${n(m.guesses.answered)} guesses answered of ${n(m.guesses.requests)}, ` +
          `${n(m.bursts)} network bursts)`,
        `formula: ${m.bound.formula} = ${n(m.bound.settledPerHour)} settled, ` +
          `${m.bound.livePerHour.toFixed(2)} live/hour`,
        m.bound.livePerHour === 0 ? 0 : m.livePerHour / m.bound.livePerHour,
        `<= ${target} live IDs/hour (${LIVE_PER_NETWORK_TARGET} per network)`,
        burstVerdict(m, target),
      ),
    )
  }
  for (const m of h.mixedBursts) {
    const b = m.bystander
    rows.push(
      row(
        'harvest',
        `a plugin server (100 hits, 10 misses an hour) at ${b.address}, beside ${m.what} ` +
          'sending mixed bursts',
        `${pct(served(b))} served (${b.refused} of ${b.requests} refused: ` +
          `${b.statuses[429] ?? 0} 429, ${b.statuses[503] ?? 0} 503)`,
        `alone (24 h): ${pct(alone)} served`,
        alone === 0 ? 0 : served(b) / alone,
        `>= ${pct(PLUGIN_SERVED_TARGET)} served`,
        verdict(served(b) >= PLUGIN_SERVED_TARGET),
      ),
    )
  }
  return rows
}
