/**
 * The harvest section's rows: each attacker's live IDs an hour beside today's figure, then the
 * legitimate callers. Today's figures are this section's own, measured on the service of the
 * commit today.json names (the baseline the limiter is judged against): that service cannot run in
 * the same run, so they stand in for a same-run baseline, and the row names their commit.
 */
import { existsSync, readFileSync } from 'node:fs'
import { row, verdict } from '../lib/rows.mjs'
import { LIVE_PER_NETWORK_TARGET } from './bound.mjs'
import { PLUGIN_SERVED_TARGET, pct, served } from './shares.mjs'

/** Today's figures (this section, run on the commit named in the file). */
const TODAY_FILE = new URL('./today.json', import.meta.url)
const { commit: TODAY_COMMIT, harvest: TODAY } = existsSync(TODAY_FILE)
  ? JSON.parse(readFileSync(TODAY_FILE, 'utf8'))
  : { commit: 'none', harvest: null }

const n = (x) => x.toLocaleString('en-US')
const perHour = (x) => (x >= 100 ? n(Math.round(x)) : x.toFixed(2))
const hours = (ms) => `${(ms / 3_600_000).toFixed(1)} h`
/** The target of an attacker holding `networks` networks, and its cell. */
const targetOf = (networks) => LIVE_PER_NETWORK_TARGET * networks
const targetCell = (networks) =>
  `<= ${perHour(targetOf(networks))}/hour (${LIVE_PER_NETWORK_TARGET} per network held, ${n(networks)} held)`

/** How an attacker's best hour went, in one cell. */
function attackCell(b) {
  const how =
    b.extrapolatedFrom === undefined
      ? `${n(b.answered)} of ${n(b.requests)} requests answered, ${b.found} found in this draw`
      : `extrapolated from ${b.extrapolatedFrom}`
  return `${perHour(b.foundPerHour)} live IDs/hour over ${hours(b.coveredMs)} (${how}; ${b.strategy})`
}

/** @type {import('../sections.mjs').RowFunction} */
export function harvestRows(r) {
  const h = r.harvest
  if (!h || h.mixedOnly) return []
  const today = (label) => TODAY?.attackers.find((a) => a.label === label)?.best
  const commit = `today (${TODAY_COMMIT})`
  const rows = h.attackers.map((a) => {
    const t = today(a.label)
    return row(
      'harvest',
      `live IDs found per hour (an hour, averaged with the penalty it led to), ${a.what}, ` +
        `${h.liveIds} live of ${n(h.idSpace)}`,
      attackCell(a.best),
      t === undefined ? '' : `${commit}: ${perHour(t.foundPerHour)} (${t.strategy})`,
      t === undefined || t.foundPerHour === 0 ? 0 : a.best.foundPerHour / t.foundPerHour,
      targetCell(a.networks),
      verdict(a.best.foundPerHour <= targetOf(a.networks)),
    )
  })
  const o = h.overload
  rows.push(
    row(
      'harvest',
      `live IDs found per hour (an hour, averaged with the penalty it led to), one IPv6 /48 ` +
        `sending ${n(o.size)} requests at once whenever a probe is answered`,
      `${perHour(o.foundPerHour)} live IDs/hour over ${hours(o.coveredMs)} (${n(o.answered)} of ` +
        `${n(o.requests)} answered in ` +
        `${o.bursts} bursts; without a verdict in time: ${n(o.withoutVerdict.served)} served, ` +
        `${n(o.withoutVerdict.refused)} refused)`,
      TODAY === null ? '' : `${commit}: ${perHour(TODAY.overload.foundPerHour)}`,
      !TODAY?.overload.foundPerHour ? 0 : o.foundPerHour / TODAY.overload.foundPerHour,
      targetCell(1),
      verdict(o.foundPerHour <= targetOf(1)),
    ),
  )
  const bystanders = [
    ...h.attackers
      .filter((a) => a.best.bystander !== undefined)
      .map((a) => [a.what, a.best.strategy, a.best.bystander, today(a.label)?.bystander]),
    [
      `the /48 sending ${n(o.size)} at once`,
      'overload',
      { address: '2001:db8:0:ffff::10', ...o.bystander },
      TODAY?.overload.bystander,
    ],
  ]
  for (const [what, strategy, b, t] of bystanders) {
    rows.push(
      row(
        'harvest',
        `a plugin server (100 hits, 10 misses an hour) at ${b.address}, beside ${what} harvesting (${strategy})`,
        `${pct(served(b))} served (${b.refused} of ${b.requests} refused)`,
        t === undefined ? '' : `${commit}: ${pct(served(t))} served`,
        t === undefined || served(t) === 0 ? 0 : served(b) / served(t),
        `>= ${pct(PLUGIN_SERVED_TARGET)} served`,
        verdict(served(b) >= PLUGIN_SERVED_TARGET),
      ),
    )
  }
  const { plugin, retrier } = h.callers
  const first = h.budgets.firstPenaltySeconds
  rows.push(
    row(
      'harvest',
      `a plugin server making 100 hits and 10 misses an hour, for ${plugin.hours} hours`,
      `${plugin.refused} of ${n(plugin.requests)} requests refused`,
      TODAY?.callers.plugin === undefined
        ? ''
        : `${commit}: ${TODAY.callers.plugin.refused} refused`,
      TODAY?.callers.plugin === undefined ? 0 : served(plugin) / served(TODAY.callers.plugin),
      'never refused',
      verdict(plugin.refused === 0),
    ),
    row(
      'harvest',
      'a server retrying an expired ID once a second for a minute, then asking once a second',
      `refused for ${retrier.refusedSeconds} s (${retrier.refused} requests); first penalty ${first} s`,
      TODAY?.callers.retrier === undefined
        ? ''
        : `${commit}: refused for ${TODAY.callers.retrier.refusedSeconds} s`,
      retrier.refusedSeconds / first,
      `<= ${first} s (first penalty)`,
      verdict(retrier.refusedSeconds <= first),
    ),
  )
  return rows
}
