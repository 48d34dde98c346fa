/**
 * The soak's oracle: from the responses alone, whether the service kept its limits. The rate-limit
 * headers of each answer are checked against the policy; a 429's Retry-After against the window
 * that refused; a 200's body for its tag; and, once the load is over, each client's admissions
 * against its quota in every window (docs/api.md#rate-limits).
 */
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../../src/contract/wire.ts'
import { PLACEHOLDER } from '../../test/support/large-export.ts'

/** The contract's headers as Node's `http` gives their names: in lower case. */
export const RETRY_AFTER = RETRY_AFTER_HEADER.toLowerCase()
const RATE_LIMIT = Object.fromEntries(
  Object.entries(RATE_LIMIT_HEADERS).map(([key, name]) => [key, name.toLowerCase()]),
)

/**
 * The windows of the RateLimit header, checked against the policy (`rules`) and the X-RateLimit
 * trio; null when the answer carries no RateLimit header.
 */
export function rateLimitWindows(res, where, admitted, { rules, violations }) {
  const state = res.headers[RATE_LIMIT.state]
  if (state === undefined) return null
  const policy = res.headers[RATE_LIMIT.policy]
  const expected = rules.map((r) => `"${r.name}";q=${r.limit};w=${r.period}`).join(', ')
  if (policy !== expected) violations.add('wrong policy', `${where}: ${policy}`)
  const windows = state.split(', ').map((item) => {
    const m = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(item)
    const rule = m && rules.find((r) => r.name === m[1])
    if (!rule) return violations.add(`unreadable ${RATE_LIMIT_HEADERS.state}`, `${where}: ${state}`)
    return { name: m[1], limit: rule.limit, period: rule.period, r: Number(m[2]), t: Number(m[3]) }
  })
  if (windows.some((w) => w === undefined)) return []
  for (const w of windows) {
    if (w.t < 1 || w.t > w.period || w.r > w.limit || (admitted && w.r === w.limit)) {
      violations.add('window out of range', `${where}: ${state}`)
    }
  }
  const shown = windows.reduce((a, b) => (b.r < a.r || (b.r === a.r && b.t > a.t) ? b : a))
  const trio = [
    res.headers[RATE_LIMIT.limit],
    res.headers[RATE_LIMIT.remaining],
    res.headers[RATE_LIMIT.reset],
  ]
  if (trio.join('/') !== `${shown.limit}/${shown.r}/${shown.t}`) {
    violations.add(
      `${RATE_LIMIT_HEADERS.limit}/Remaining/Reset disagree with ${RATE_LIMIT_HEADERS.state}`,
      `${where}: ${trio.join('/')} vs ${state}`,
    )
  }
  return windows
}

/** A 429: Retry-After equal to the body's, at least 1, the wait of the window that refused. */
export function checkRefusal(res, method, where, oracle) {
  const { violations } = oracle
  const retryAfter = Number(res.headers[RETRY_AFTER])
  const windows = rateLimitWindows(res, where, false, oracle) ?? []
  const refusing = windows.filter((w) => w.r === 0)
  const wait = Math.max(1, ...refusing.map((w) => w.t))
  const longest = Math.max(0, ...refusing.map((w) => w.period))
  if (
    !Number.isInteger(retryAfter) ||
    retryAfter < 1 ||
    retryAfter > longest ||
    retryAfter !== wait
  ) {
    violations.add(
      `wrong ${RETRY_AFTER_HEADER}`,
      `${where}: ${RETRY_AFTER_HEADER} ${res.headers[RETRY_AFTER]}, ${res.headers[RATE_LIMIT.state]}`,
    )
  }
  if (method === 'HEAD') return
  try {
    const body = JSON.parse(res.body)
    if (body.error?.retryAfterSeconds !== retryAfter)
      throw new Error(`differs from ${RETRY_AFTER_HEADER}`)
  } catch (error) {
    violations.add('wrong 429 body', `${where}: ${error.message}: ${res.body}`)
  }
}

/** A 200 GET of the small export: its length as announced, its tag substituted. */
export function checkBody(res, tag, where, { violations }) {
  if (Number(res.headers['content-length']) !== res.bytes) {
    violations.add(
      'wrong Content-Length',
      `${where}: ${res.headers['content-length']} vs ${res.bytes}`,
    )
  }
  try {
    const body = JSON.parse(res.body)
    if (body.content.meta.Tags[0] !== `${tag}_root` || res.body.includes(PLACEHOLDER)) {
      throw new Error(`tag ${tag} not substituted`)
    }
  } catch (error) {
    violations.add('wrong body', `${where}: ${error.message}`)
  }
}

/**
 * Per client and window: admitted responses grouped into window instances by the reset they
 * report (resets of two instances are at least a period apart). In one instance the remaining
 * counts must all differ (no slot given twice) and there must be at most `limit` admissions.
 * Independently of the headers: any limit*2+1 admissions must span more than one period.
 * Leaves on the client how many instances it had and the most admissions in one.
 */
export function checkQuota(client, { rules, violations }) {
  for (const rule of rules) {
    const seen = client.admitted
      .filter((a) => a.name === rule.name)
      .map((a) => ({ ...a, lo: a.sent + (a.t - 1) * 1000, hi: a.received + a.t * 1000 }))
      .sort((a, b) => a.lo - b.lo)
    const instances = windowInstances(client, rule, seen, violations)
    for (const inst of instances) {
      if (inst.count > rule.limit) {
        violations.add(
          'admitted beyond quota',
          `${client.name} ${rule.name}: ${inst.count} > ${rule.limit}`,
        )
      }
    }
    client[`${rule.name}Instances`] = instances.length
    client[`${rule.name}Most`] = Math.max(0, ...instances.map((i) => i.count))
    checkSpans(client, rule, seen, violations)
  }
}

/** Admissions `seen` (sorted by `lo`) grouped into the window instances they belong to. */
function windowInstances(client, rule, seen, violations) {
  let instance = null
  const instances = []
  for (const a of seen) {
    if (instance === null || a.lo > instance.hi) {
      instance = { hi: a.hi, remaining: new Set(), count: 0 }
      instances.push(instance)
    }
    instance.hi = Math.max(instance.hi, a.hi)
    instance.count++
    if (instance.remaining.has(a.r)) {
      violations.add('slot given twice', `${client.name} ${rule.name}: remaining=${a.r} seen twice`)
    }
    instance.remaining.add(a.r)
    // The first admission of a window sees all of its period ahead.
    if (a.r === rule.limit - 1 && a.t !== rule.period) {
      violations.add('window shorter than its period', `${client.name} ${rule.name}: t=${a.t}`)
    }
  }
  return instances
}

/** Whatever the headers said: no limit*2+1 admissions within one period. */
function checkSpans(client, rule, seen, violations) {
  const bySent = [...seen].sort((a, b) => a.sent - b.sent)
  const run = rule.limit * 2 + 1
  for (let i = 0; i + run <= bySent.length; i++) {
    const group = bySent.slice(i, i + run)
    const span = Math.max(...group.map((a) => a.received)) - group[0].sent
    if (span <= rule.period * 1000) {
      violations.add(
        'admitted beyond quota',
        `${client.name} ${rule.name}: ${run} in ${Math.round(span)} ms`,
      )
      break
    }
  }
}
