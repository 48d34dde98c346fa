/**
 * The bench's report: the figures of a run (bench-results/latest.json) as table rows, each
 * subject beside its baseline from the same run, and the rows as one Markdown table. Sections
 * measure (run.mjs and one module each); this only reads what they measured.
 */
import { graceCopyRows } from './grace-copy.mjs'
import { memoryRows } from './memory-workerd.mjs'
import { median, pairedRatio, times } from './stats.mjs'
import { writeBehindRows } from './write-behind.mjs'

/**
 * The table rows: one comparison each, subject beside its baseline from the same run. A ratio is
 * subject / baseline: higher is better for throughput, lower for latency, memory and CPU. `r` is
 * the run's figures (bench-results/latest.json), `config` the sizes and loads it ran with.
 */
export function tableRows(r, config) {
  const rows = []
  const row = (area, what, subject, baseline, ratio, target = '', met = '') =>
    rows.push({ area, case: what, subject, baseline, ratio, target, met })
  const verdict = (ok) => (ok ? 'yes' : 'no')
  const mb = (value) => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} MB/s`
  const kb = (bytes) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KiB`
  const ms = (micros) => `${(micros / 1000).toFixed(2)} ms`

  for (const [env, list] of [
    ['workerd', r.walkerWorkerd ?? []],
    ['Node', r.walkerNode?.results ?? []],
  ]) {
    for (const input of list) {
      const m = Object.fromEntries(Object.entries(input.mbps).map(([k, v]) => [k, median(v)]))
      const size = input.check.bytes >= 1e6 ? '20 MB' : kb(input.check.bytes)
      const what = `${input.name.replace(/^synthetic-20MB-/, 'synthetic ')} (${size}), ${env}`
      const c = input.check
      const engine = c.readPathEngine
      const sameBytes = { splicer: c.splicerSameBytes, walker: c.walkerSameBytes }
      const ra = pairedRatio(input.mbps[engine], input.mbps.replaceAll)
      const rb = pairedRatio(input.mbps[engine], input.mbps.streamparser)
      row(
        'substitution',
        `${what}: read path (${engine})`,
        mb(m[engine]),
        `(a) replaceAll ${mb(m.replaceAll)}`,
        ra,
        '>= 1.5x',
        sameBytes[engine] ? verdict(ra >= 1.5) : 'FAIL',
      )
      row(
        'substitution',
        `${what}: read path (${engine})`,
        mb(m[engine]),
        `(b) streamparser ${mb(m.streamparser)}`,
        rb,
        '>= 50x',
        c.streamparserSameParsed ? verdict(rb >= 50) : 'FAIL',
      )
      for (const other of ['splicer', 'walker'].filter((name) => name !== engine)) {
        row(
          'substitution',
          `${what}: ${other}${other === 'walker' ? ' (escaped spellings)' : ''}`,
          mb(m[other]),
          `(a) replaceAll ${mb(m.replaceAll)}`,
          pairedRatio(input.mbps[other], input.mbps.replaceAll),
          '',
          sameBytes[other] ? '' : 'FAIL',
        )
      }
      if (env === 'workerd') {
        row(
          'substitution',
          `${what}: read path (${engine}) vs a plain copy`,
          mb(m[engine]),
          `copy (Uint8Array.set into a fresh buffer) ${mb(m.copy)}`,
          pairedRatio(input.mbps[engine], input.mbps.copy),
        )
        row(
          'substitution',
          `${what}: walker as a TransformStream, 64 KiB / 4 KiB chunks`,
          `${mb(m.stream)} / ${mb(m.stream4k)}`,
          `walker.push ${mb(m.walker)}`,
          pairedRatio(input.mbps.stream4k, input.mbps.walker),
          '',
          c.streamSameBytes ? '' : 'FAIL',
        )
      }
    }
  }

  if (r.memory) {
    const mem = (mode, bytes) => r.memory.find((m) => m.mode === mode && m.bytes === bytes)
    const [small, large] = config.memory.sizes
    for (const bytes of [small, large]) {
      const a = mem('replaceAll', bytes)
      for (const engine of ['splicer', 'walker']) {
        const w = mem(engine, bytes)
        row(
          'memory',
          `${engine} peak while streaming ${bytes / 1e6} MB (dense), Node`,
          `${kb(w.peakLive)} live, ${kb(w.peakWithGarbage)} with garbage`,
          `(a) replaceAll ${kb(a.peakLive)} live`,
          w.peakLive / a.peakLive,
        )
      }
    }
    for (const engine of ['splicer', 'walker']) {
      const ws = mem(engine, small)
      const wl = mem(engine, large)
      for (const [what, key] of [
        ['live', 'peakLive'],
        ['with garbage', 'peakWithGarbage'],
      ]) {
        const growth = wl[key] / ws[key]
        row(
          'memory',
          `${engine} peak ${what}: ${large / 1e6} MB vs ${small / 1e6} MB export`,
          kb(wl[key]),
          kb(ws[key]),
          growth,
          '~1x (<= 1.25x)',
          verdict(growth <= 1.25),
        )
      }
    }
  }
  if (r.memoryWorkerd) memoryRows(r.memoryWorkerd, row)
  if (r.http) {
    const h = r.http.summary
    const reqs = (s) =>
      `${Math.round(s.rps).toLocaleString('en-US')} req/s, p50 ${s.p50.toFixed(1)} ms, ` +
      `p99 ${s.p99.toFixed(1)} ms, ${ms(s.cpuMicros)} CPU/req`
    const clean = (...names) => names.every((n) => h[n].unexpected === 0)
    row(
      'request',
      `GET ${r.http.fixture} (${kb(r.http.bytes)}), varied tags, ${config.http.clientIps} IPs`,
      reqs(h.GET),
      `KV pass-through: ${reqs(h['GET baseline'])}`,
      r.http.ratios.GET,
      '>= 0.7x',
      clean('GET', 'GET baseline') ? verdict(r.http.ratios.GET >= 0.7) : 'FAIL',
    )
    row(
      'request',
      `GET synthetic sparse export (${kb(r.http.streamedBytes)}, streamed), varied tags`,
      reqs(h['GET streamed']),
      `KV pass-through: ${reqs(h['GET streamed baseline'])}`,
      r.http.ratios['GET streamed'],
      '',
      clean('GET streamed', 'GET streamed baseline') ? '' : 'FAIL',
    )
    for (const [name, what, baseline] of [
      ['HEAD', 'HEAD (same export)', 'KV metadata only'],
      ['404', 'GET unknown ID (404)', 'KV miss, constant 404'],
      ['429', 'GET over the limit (429)', 'constant 429'],
      ['OPTIONS', 'OPTIONS preflight (204)', 'constant 204'],
    ]) {
      const target = name === 'HEAD' ? '>= 0.7x' : ''
      row(
        'request',
        what,
        reqs(h[name]),
        `${baseline}: ${reqs(h[`${name} baseline`])}`,
        r.http.ratios[name],
        target,
        clean(name, `${name} baseline`)
          ? target
            ? verdict(r.http.ratios[name] >= 0.7)
            : ''
          : 'FAIL',
      )
    }

    row(
      'limiter',
      'GET, with the limiter vs the same routes without it',
      reqs(h.GET),
      `no limiter: ${reqs(h['GET no limiter'])}`,
      r.http.ratios['GET vs no limiter'],
      '',
      clean('GET no limiter') ? '' : 'FAIL',
    )
    for (const [name, baseline] of [
      ['GET before', 'KV pass-through'],
      ['HEAD before', 'KV metadata only'],
    ]) {
      row(
        'limiter',
        `${name.split(' ')[0]} with the limiter before write-behind (a write per request)`,
        reqs(h[name]),
        `${baseline}: ${reqs(h[`${name.split(' ')[0]} baseline`])}`,
        r.http.ratios[name],
        '',
        clean(name) ? '' : 'FAIL',
      )
    }
    row(
      'limiter',
      'GET from 16 addresses (limiter objects stay in memory) vs the KV pass-through',
      reqs(h['GET 16 clients']),
      `KV pass-through: ${reqs(h['GET baseline'])}`,
      r.http.ratios['GET 16 clients'],
      '',
      clean('GET 16 clients') ? '' : 'FAIL',
    )
    row(
      'limiter',
      'HEAD, with the limiter vs without it',
      reqs(h.HEAD),
      `no limiter: ${reqs(h['HEAD no limiter'])}`,
      r.http.ratios['HEAD vs no limiter'],
      '',
      clean('HEAD no limiter') ? '' : 'FAIL',
    )
    row(
      'limiter',
      'HEAD from a new address every time vs from known ones',
      reqs(h['HEAD new client']),
      `known addresses: ${reqs(h.HEAD)}`,
      r.http.ratios['HEAD new client vs known'],
      '',
      clean('HEAD new client') ? '' : 'FAIL',
    )
    row(
      'limiter',
      'workerd CPU per HEAD, with the limiter vs without it',
      `${ms(h.HEAD.cpuMicros)} (limiter: +${ms(h.HEAD.cpuMicros - h['HEAD no limiter'].cpuMicros)})`,
      ms(h['HEAD no limiter'].cpuMicros),
      h.HEAD.cpuMicros / h['HEAD no limiter'].cpuMicros,
    )
  }
  if (r.limiter) {
    const l = r.limiter
    row(
      'limiter',
      `RateLimiter.hit RPC alone, sequential, ${l.keys} clients`,
      `${l.hitMicros.toFixed(0)} us/call`,
      `bare DO RPC ${l.echoMicros.toFixed(0)} us/call (plus one storage write: ${l.writeMicros.toFixed(0)} us)`,
      l.ratio,
      '<= 1.5x',
      verdict(l.ratio <= 1.5),
    )
  }
  writeBehindRows(r, row)
  if (r.publish) {
    const p = r.publish.summary
    const pubs = (s) =>
      `${s.rps.toFixed(1)}/s, p50 ${s.p50.toFixed(1)} ms, ${ms(s.cpuMicros)} CPU/req`
    row(
      'publish',
      `POST /editor-api/exports, ${r.publish.fixture} (${kb(r.publish.bytes)})`,
      pubs(p.publish),
      `KV put of the body: ${pubs(p['KV put baseline'])}`,
      r.publish.ratio,
      '',
      p.publish.unexpected === 0 && p['KV put baseline'].unexpected === 0 ? '' : 'FAIL',
    )
    const a = r.alloc
    const pct = (x) => `${Math.round(x * 100)}%`
    row(
      'publish',
      `ID allocation, space of ${a.space}: ${pct(a.fullFrom)}-${pct(a.fullTo)} vs 0-${pct(a.emptyTo)} full`,
      `${a.fullMicros.toFixed(0)} us/ID`,
      `${a.emptyMicros.toFixed(0)} us/ID`,
      a.ratio,
      'flat (<= 1.25x)',
      a.duplicates === 0 ? verdict(a.ratio <= 1.25) : 'FAIL',
    )
  }
  rows.push(...graceCopyRows(r.grace))
  return rows
}

/** The table as Markdown, readable in a terminal and ready for docs/performance.md. */
export function renderTable(r) {
  const head = ['area', 'case', 'subject', 'baseline (same run)', 'ratio', 'target', 'met']
  const body = r.rows.map((x) => [
    x.area,
    x.case,
    x.subject,
    x.baseline,
    times(x.ratio),
    x.target,
    x.met,
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => String(b[i]).length)))
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`
  const m = r.machine
  return [
    `Benchmark ${r.startedAt} (${r.seconds.toFixed(0)} s), ${m.nproc} cores ${m.cpuModel}, Node ${m.node}, workerd ${m.workerd}`,
    `Load average (1 min) before/after: ${m.loadavgBefore[0].toFixed(2)} / ${m.loadavgAfter[0].toFixed(2)}. Worker: ${r.entry}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
  ].join('\n')
}
