/** The request section's table rows: each request kind beside its baseline Worker. */
import { cleanRuns, kb, requestRate, row, verdict } from '../lib/rows.mjs'

/** The section's table rows: each request kind beside its baseline Worker. */
export function requestRows(r, config) {
  if (!r.http) return []
  const h = r.http.summary
  const rows = [
    row(
      'request',
      `GET ${r.http.fixture} (${kb(r.http.bytes)}), varied tags, ${config.http.clientIps} IPs (limiter objects cold)`,
      requestRate(h.GET),
      `KV pass-through: ${requestRate(h['GET baseline'])}`,
      r.http.ratios.GET,
      '>= 0.7x',
      cleanRuns(h, 'GET', 'GET baseline') ? verdict(r.http.ratios.GET >= 0.7) : 'FAIL',
    ),
    row(
      'request',
      `GET synthetic sparse export (${kb(r.http.streamedBytes)}, streamed), varied tags`,
      requestRate(h['GET streamed']),
      `KV pass-through: ${requestRate(h['GET streamed baseline'])}`,
      r.http.ratios['GET streamed'],
      '',
      cleanRuns(h, 'GET streamed', 'GET streamed baseline') ? '' : 'FAIL',
    ),
  ]
  // Each case beside its baseline; the `no storage` ones show what one limiter RPC per request
  // costs at the least, in the same run.
  for (const [name, what, baseline, label] of [
    ['HEAD', 'HEAD (same export)', 'HEAD baseline', 'KV metadata only'],
    ['404', 'GET unknown ID (404)', '404 baseline', 'KV miss, constant 404'],
    ['429', 'GET over the limit (429)', '429 baseline', 'constant 429'],
    ['OPTIONS', 'OPTIONS preflight (204)', 'OPTIONS baseline', 'constant 204'],
    [
      'GET no storage',
      'GET, limiter object without storage (the floor of one RPC), cold',
      'GET baseline',
      'KV pass-through',
    ],
    [
      'GET no storage 16 clients',
      'GET, limiter object without storage, 16 IPs (warm)',
      'GET baseline',
      'KV pass-through',
    ],
    [
      'HEAD no storage',
      'HEAD, limiter object without storage, cold',
      'HEAD baseline',
      'KV metadata only',
    ],
  ]) {
    const target = name === 'HEAD' ? '>= 0.7x' : ''
    const met = target ? verdict(r.http.ratios[name] >= 0.7) : ''
    rows.push(
      row(
        'request',
        what,
        requestRate(h[name]),
        `${label}: ${requestRate(h[baseline])}`,
        r.http.ratios[name],
        target,
        cleanRuns(h, name, baseline) ? met : 'FAIL',
      ),
    )
  }
  return rows
}
