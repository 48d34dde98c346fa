/**
 * Clients that fetch live exports, as the plugins in the wild do: a `caller` sends a fixed list
 * of requests, each at its time, and keeps each one's final answer. With `retry`, it honours
 * `Retry-After` as the Java client does (clients/java ExportClient): a 429 or 503 that says how
 * long to wait is tried again after that wait (at least `MIN_RETRY_WAIT_MS`), while the waits of
 * one call add up to no more than `maxRetryWaitMs`; otherwise the call fails with that answer.
 */
import { kindOf } from './actors.mjs'

/** The Java client's shortest wait between two tries (ExportClient.MIN_RETRY_WAIT). */
export const MIN_RETRY_WAIT_MS = 1_000

/** What a caller's requests came to, each counted once, by its final answer. */
function tally() {
  return { requests: 0, served: 0, refused429: 0, refused503: 0, other: 0, tries: 0, statuses: {} }
}

function settle(t, status) {
  t.requests++
  t.statuses[status] = (t.statuses[status] ?? 0) + 1
  if (status === 200) t.served++
  else if (status === 429) t.refused429++
  else if (status === 503) t.refused503++
  else t.other++
}

/**
 * A caller of `sends` (`{ at, address, path }`, in any order). `retry`: `{ maxRetryWaitMs }`, or
 * null for a plugin that never retries. `countFrom`: answers settled before it are not counted.
 */
export function caller({ sends, retry = null, countFrom = -Infinity }) {
  const figures = tally()
  // Each pending try: its send, when it is due and how long its call has waited already.
  let pending = sends.map((s) => ({ ...s, waited: 0 }))
  let sending = []
  const dueOf = () => (pending.length === 0 ? null : Math.min(...pending.map((p) => p.at)))
  return {
    figures,
    due: dueOf(),
    requests(now) {
      sending = pending.filter((p) => p.at === now)
      pending = pending.filter((p) => p.at !== now)
      return sending.map((p) => [p.address, p.path])
    },
    answered(now, answers) {
      answers.forEach(([status, retryAfter], i) => {
        const p = sending[i]
        if (now >= countFrom) figures.tries++
        const wait = Math.max(MIN_RETRY_WAIT_MS, retryAfter * 1000)
        const retryable = kindOf(status) === 'refused' && retryAfter > 0
        if (retry !== null && retryable && wait <= retry.maxRetryWaitMs - p.waited) {
          pending.push({ ...p, at: now + wait, waited: p.waited + wait })
        } else if (now >= countFrom) settle(figures, status)
      })
      this.due = dueOf()
    },
  }
}

/** The share of a caller's requests served (200). */
export function servedShare(f) {
  return f.requests === 0 ? 1 : f.served / f.requests
}

/** `paths` sent from `address` all at `at`. */
export function atOnce(address, paths, at) {
  return paths.map((path) => ({ at, address, path }))
}

/** `paths` sent from `address` one after another, `gapMs` apart, from `at`. */
export function oneAfterAnother(address, paths, at, gapMs) {
  return paths.map((path, i) => ({ at: at + i * gapMs, address, path }))
}
