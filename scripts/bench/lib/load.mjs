/**
 * Load generation over loopback for the bench sections. autocannon (pinned 9.0.0) drives
 * the timed runs, except HEAD: its HTTP parser does not know a HEAD response has no body and
 * waits for the bytes of its Content-Length. HEAD, and runs of a fixed number of requests
 * (autocannon checks `amount` only once a second, which skews the rate of short runs), use a
 * bounded loop over node:http keep-alive sockets, for the subject and its baseline alike. Both
 * record each response's latency themselves (sub-millisecond; autocannon's own histogram rounds
 * to whole ms) and count statuses.
 */
import autocannon from 'autocannon'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { percentile } from './stats.mjs'

/**
 * Runs one load case. `request(i)` gives the i-th request: `{ path, headers?, method?, body? }`.
 * Stops after `durationSeconds`, or after `amount` requests when given.
 */
export function runLoad({ url, connections, durationSeconds, amount, request, method = 'GET' }) {
  return method === 'HEAD' || amount !== undefined
    ? runHttpLoop({ url, connections, durationSeconds, amount, request, method })
    : runAutocannon({ url, connections, durationSeconds, request, method })
}

function runAutocannon({ url, connections, durationSeconds, request, method }) {
  const latencies = []
  const statuses = {}
  let i = 0
  const started = performance.now()
  let lastResponse = started
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        pipelining: 1,
        duration: durationSeconds,
        requests: [
          {
            method,
            setupRequest(req) {
              const next = request(i++)
              return { ...req, ...next, headers: { ...req.headers, ...next.headers } }
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error)
        // Up to the last response: autocannon reports only at its next once-a-second tick.
        const seconds = (lastResponse - started) / 1000
        resolve(summarize(latencies, statuses, seconds, result.errors + result.timeouts))
      },
    )
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      lastResponse = performance.now()
      latencies.push(responseTime)
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
    })
  })
}

async function runHttpLoop({ url, connections, durationSeconds, amount, request, method }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const latencies = []
  const statuses = {}
  let errors = 0
  let i = 0
  const started = performance.now()
  const deadline = started + (durationSeconds ?? Infinity) * 1000
  const base = new URL(url)
  const one = ({ body, ...req }) =>
    new Promise((resolve) => {
      const t0 = performance.now()
      const r = http.request(
        { host: base.hostname, port: base.port, method, agent, ...req },
        (res) => {
          res.resume()
          res.on('end', () => {
            latencies.push(performance.now() - t0)
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
            resolve()
          })
        },
      )
      r.on('error', () => {
        errors++
        resolve()
      })
      r.end(body)
    })
  const worker = async () => {
    while (performance.now() < deadline && (amount === undefined || i < amount)) {
      await one(request(i++))
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
  agent.destroy()
  return summarize(latencies, statuses, (performance.now() - started) / 1000, errors)
}

function summarize(latencies, statuses, seconds, errors) {
  const count = latencies.length
  return {
    requests: count,
    seconds,
    rps: count / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
    errors,
  }
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100

/** The workerd processes Miniflare started: children of this process named `workerd`. */
export function workerdPids() {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  })
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm?.startsWith('workerd'))
    .map(([pid]) => Number(pid))
}

/** CPU time (ms, all threads) the processes have used so far, in user and in system mode. */
export function cpuMillis(pids) {
  let user = 0
  let system = 0
  for (const pid of pids) {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    user += Number(fields[11])
    system += Number(fields[12])
  }
  return { user: (user * 1000) / TICKS_PER_SECOND, system: (system * 1000) / TICKS_PER_SECOND }
}

/**
 * `runLoad`, plus the CPU time `serverPids` (workerd) and this process spent on the run. With
 * `settleSeconds`, the run is followed by a pause that long, and workerd's CPU during it (the
 * work the run's requests left behind, such as a limiter's deferred writes) is part of the run's
 * CPU figures, not of its duration or request rate; `settleCpuMs` says how much of it there was.
 */
export function loadWithCpu(serverPids) {
  return async ({ settleSeconds = 0, ...options }) => {
    const server = cpuMillis(serverPids)
    const client = process.cpuUsage()
    const run = await runLoad(options)
    const { user, system } = process.cpuUsage(client)
    const loaded = cpuMillis(serverPids)
    if (settleSeconds > 0) await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000))
    const after = cpuMillis(serverPids)
    run.serverUserMs = after.user - server.user
    run.serverSystemMs = after.system - server.system
    run.serverCpuMs = run.serverUserMs + run.serverSystemMs
    run.settleCpuMs = after.user + after.system - loaded.user - loaded.system
    run.clientCpuMs = (user + system) / 1000
    run.serverCpuMicrosPerRequest = (run.serverCpuMs * 1000) / run.requests
    return run
  }
}
