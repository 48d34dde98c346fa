#!/usr/bin/env node
// `npm run soak [-- --duration 60 --ips 500 --concurrency 32 --json]`: a bounded soak of the
// service on loopback. GETs and HEADs from many simulated client addresses (CF-Connecting-IP,
// which reaches the Worker unchanged in local dev) around their limits, publishes in between.
// From the responses alone it checks that no client was admitted beyond its quota in any window,
// that every 429 carried the right Retry-After, and that nothing answered 5xx. Every publish is
// read at once (GET and HEAD) as a far location would, with KV lagging behind
// (SIMULATED_KV_LAG_SECONDS): each must be a 200 with the exact bytes, never 503 not_ready.
// It starts the service itself (`npm start`, fresh state, small limits, the lag) unless --url
// names a running one.
// Prints a summary; exits 1 on any violation, 2 on bad usage. No dependencies: Node 22 only.
// Its jobs, in scripts/soak/: the command line (options.mjs), the service (service.mjs), the
// load (load.mjs), the quota oracle (quota.mjs), the report (report.mjs).
import http from 'node:http'
import { makeClients, newSoak, publishLoop, requestLoop } from './soak/load.mjs'
import { readOptions } from './soak/options.mjs'
import { checkQuota } from './soak/quota.mjs'
import { report, summary } from './soak/report.mjs'
import { SOAK_TOKEN, startService } from './soak/service.mjs'
import { Violations } from './soak/violations.mjs'

const options = readOptions(process.argv.slice(2))
const soak = newSoak(options, new Violations())
const service = options.url ? null : await startService(options)
const base = options.url ?? service.url
const token = options.url ? options.token : SOAK_TOKEN
const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency + 1 })
const clients = makeClients(options.ips)
const published = []
const started = performance.now()
const deadline = started + options.duration * 1000
try {
  await Promise.all([
    publishLoop(soak, base, token, agent, published, deadline),
    ...Array.from({ length: options.concurrency }, () =>
      requestLoop(soak, base, agent, clients, published, deadline),
    ),
  ])
} finally {
  agent.destroy()
  await service?.stop()
}
const seconds = (performance.now() - started) / 1000
for (const client of clients)
  checkQuota(client, { rules: options.rules, violations: soak.violations })
report(summary(soak, clients, seconds), options.json)
process.exit(soak.violations.byKind.size > 0 ? 1 : 0)
