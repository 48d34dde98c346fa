/**
 * The runbook's lists of words that dashboards, alerts and queries filter on, held to the code's
 * own unions: the log line's fields and their values, the outcomes, the incidents, the refusal
 * reasons and the metric columns (docs/operations.md#logs, #metrics). A word added to the code
 * and not to the runbook, or the other way round, fails here.
 */
import { describe, expect, it } from 'vitest'
import operations from '../../docs/operations.md?raw'
import { UNSAFE_REASONS } from '../../src/export-safety'
import {
  METRIC_BLOBS,
  METRIC_DOUBLES,
  type Incident,
  type LimiterVerdict,
  type MissPenalty,
  type Outcome,
  type RequestEvent,
  type RequestLine,
} from '../../src/observability'
import { codeWords, section, tableRows } from '../support/markdown'

// Each union as an object with one key per member: `satisfies` fails the type check when the
// union gains or loses a member, so these stay the code's own lists.
const LOG_FIELDS = {
  event: true,
  method: true,
  status: true,
  outcome: true,
  id: true,
  ms: true,
  bytes: true,
  colo: true,
  ray: true,
  limiter: true,
  window: true,
  penalty: true,
  exportBytes: true,
  tagLength: true,
  client: true,
  cause: true,
  unsettled: true,
  deprecated: true,
  unsafe: true,
} as const satisfies Record<keyof RequestLine, true>
const EVENTS = {
  retrieve: true,
  publish: true,
  status: true,
  openapi: true,
  page: true,
  other: true,
} as const satisfies Record<RequestEvent, true>
const VERDICTS = { admitted: true, refused: true, failed_closed: true } as const satisfies Record<
  LimiterVerdict,
  true
>
const PENALTIES = {
  '/32': true,
  '/24': true,
  '/16': true,
  '/64': true,
  '/48': true,
  '::/32': true,
  other: true,
} as const satisfies Record<MissPenalty, true>
const OUTCOMES = {
  served: true,
  preflight: true,
  published: true,
  reported: true,
  invalid_id: true,
  unknown_id: true,
  expired: true,
  not_yet_visible: true,
  storage_failed: true,
  method_not_allowed: true,
  route_not_found: true,
  rate_limited: true,
  limiter_unavailable: true,
  unauthorized: true,
  unsupported_media_type: true,
  too_large: true,
  invalid_json: true,
  invalid_export: true,
  invalid_quick_command: true,
  unsafe_export: true,
  id_space_full: true,
  allocator_failed: true,
  internal: true,
} as const satisfies Record<Outcome, true>
const INCIDENTS = {
  limiter_failed_closed: true,
  limiter_miss_unreported: true,
  id_release_failed: true,
  export_write_timed_out: true,
  export_stream_failed: true,
  metrics_write_failed: true,
  observation_failed: true,
} as const satisfies Record<Incident, true>

const sorted = (words: Iterable<string>) => [...words].sort()
const keys = (union: object) => sorted(Object.keys(union))

const logSection = section(operations, '## Logs')
const fieldRows = tableRows(logSection, '| field ')
/** The "meaning" cell of the log field `name`. */
const meaning = (name: string) => fieldRows.find(([field]) => field === `\`${name}\``)![2]!

describe('the runbook against the code', () => {
  it('lists every field of the request line, and no other', () => {
    expect(sorted(fieldRows.map(([field]) => codeWords(field!)[0]!))).toEqual(keys(LOG_FIELDS))
  })

  it('lists every event, limiter verdict and miss penalty in its field', () => {
    expect(sorted(codeWords(meaning('event')).filter((w) => !w.startsWith('/')))).toEqual(
      keys(EVENTS),
    )
    expect(sorted(codeWords(meaning('limiter')))).toEqual(keys(VERDICTS))
    expect(sorted(codeWords(meaning('penalty')))).toEqual(keys(PENALTIES))
  })

  it('lists every refusal reason of the display-model check in the unsafe field', () => {
    expect(sorted(codeWords(meaning('unsafe')))).toEqual(sorted(UNSAFE_REASONS))
  })

  it('lists every outcome, and no other', () => {
    const rows = tableRows(section(logSection, '### Outcomes'), '| outcome ')
    expect(sorted(rows.flatMap(([outcome]) => codeWords(outcome!)))).toEqual(keys(OUTCOMES))
  })

  it('lists every incident, and no other', () => {
    const rows = tableRows(section(logSection, '### Incidents'), '| incident ')
    expect(sorted(rows.map(([incident]) => codeWords(incident!)[0]!))).toEqual(keys(INCIDENTS))
  })

  it('lists the metric columns in the order the data point writes them', () => {
    const rows = tableRows(section(operations, '## Metrics'), '| column ')
    const columns = rows.map(([column, name]) => [codeWords(column!)[0], name!.replace(/ /g, '_')])
    expect(columns.filter(([column]) => column!.startsWith('blob'))).toEqual(
      METRIC_BLOBS.map(([name], index) => [`blob${index + 1}`, name]),
    )
    expect(columns.filter(([column]) => column!.startsWith('double'))).toEqual(
      METRIC_DOUBLES.map(([name], index) => [`double${index + 1}`, name]),
    )
    const routes = codeWords(rows.find(([column]) => column === '`blob1`')![2]!)
    expect(sorted(routes.filter((word) => word !== 'event'))).toEqual(keys(EVENTS))
  })
})
