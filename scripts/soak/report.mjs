/** The soak's summary (the `--json` output) and its text form. */

/** The run's figures and violations, from the clients' quota checks and the running state. */
export function summary({ options, stats, fresh, violations }, clients, seconds) {
  const most = (key) => Math.max(0, ...clients.map((c) => c[key] ?? 0))
  return {
    seconds: Math.round(seconds * 10) / 10,
    clients: clients.length,
    concurrency: options.concurrency,
    limits: { short: options.short, long: options.long },
    requests: stats.requests,
    rps: Math.round(stats.requests / seconds),
    statuses: stats.statuses,
    refusals: stats.refusals,
    publishes: stats.publishes,
    kvLagSeconds: options.url ? null : options.kvLag,
    freshReads: fresh,
    servedUnlimited: stats.unlimited,
    mostAdmittedInOneWindow: { short: most('shortMost'), long: most('longMost') },
    mostWindowsOfOneClient: { short: most('shortInstances'), long: most('longInstances') },
    violations: Object.fromEntries(violations.byKind),
  }
}

/** Prints the summary, as JSON with `json`. */
export function report(s, json) {
  if (json) return console.log(JSON.stringify(s))
  console.log(
    `soak: ${s.requests} requests in ${s.seconds} s (${s.rps} req/s), ${s.publishes} publishes`,
  )
  console.log(
    `  ${s.clients} clients, concurrency ${s.concurrency}, limits short ${s.limits.short} long ${s.limits.long}`,
  )
  console.log(
    `  statuses: ${Object.entries(s.statuses)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}`,
  )
  const f = s.freshReads
  console.log(
    `  read at once after publishing (KV lag ${s.kvLagSeconds ?? 'of --url'} s): ${f.reads} publishes (${f.large} over 1 MiB), GET and HEAD each; not ready ${f.notReady}, other bytes ${f.mismatched}`,
  )
  console.log(
    `  most admitted in one window: short ${s.mostAdmittedInOneWindow.short}, long ${s.mostAdmittedInOneWindow.long}`,
  )
  console.log(
    `  most windows of one client: short ${s.mostWindowsOfOneClient.short}, long ${s.mostWindowsOfOneClient.long}`,
  )
  const violations = Object.entries(s.violations)
  console.log(`  violations: ${violations.length === 0 ? 'none' : ''}`)
  for (const [kind, { count, examples }] of violations) {
    console.log(`    ${kind}: ${count}`)
    for (const example of examples) console.log(`      ${example}`)
  }
}
