/** The soak's command line: its options, their bounds, and the usage text. */
import { parseArgs } from 'node:util'

const USAGE = `Usage: npm run soak -- [options]

Options:
  --duration S        seconds of load (default 60, at most 600)
  --ips N             simulated client addresses (default 500)
  --concurrency N     requests in flight at once (default 32)
  --short Q/W         short window, requests/seconds (default 20/10)
  --long Q/W          long window, requests/seconds (default 30/30)
  --publish-every MS  one publish every MS milliseconds (default 250)
  --kv-lag S          seconds KV takes to show a publish to the started service
                      (SIMULATED_KV_LAG_SECONDS, default 30)
  --url URL           soak a service already running on loopback (its limits must be the
                      ones given here) instead of starting one
  --token T           editor API token of --url (default dev-publish-token)
  --json              print the summary as JSON
  -h, --help          show this help`

const MAX_DURATION_SECONDS = 600

/** The options, checked; prints the usage and exits 2 on a bad one, 0 after `--help`. */
export function readOptions(args) {
  let parsed
  try {
    parsed = parseArgs({
      args,
      options: {
        duration: { type: 'string', default: '60' },
        ips: { type: 'string', default: '500' },
        concurrency: { type: 'string', default: '32' },
        short: { type: 'string', default: '20/10' },
        long: { type: 'string', default: '30/30' },
        'publish-every': { type: 'string', default: '250' },
        'kv-lag': { type: 'string', default: '30' },
        url: { type: 'string' },
        token: { type: 'string', default: 'dev-publish-token' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values
  } catch (error) {
    usage(error.message)
  }
  if (parsed.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const whole = (name, max) => {
    const n = Number(parsed[name])
    if (!Number.isInteger(n) || n < 1 || n > max) usage(`--${name} must be a whole number 1-${max}`)
    return n
  }
  const rule = (name) => {
    const m = /^(\d+)\/(\d+)$/.exec(parsed[name])
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) usage(`--${name} must look like 20/10`)
    return { name, limit: Number(m[1]), period: Number(m[2]) }
  }
  if (parsed.url && !isLoopback(parsed.url)) usage('--url must be a loopback address')
  return {
    duration: whole('duration', MAX_DURATION_SECONDS),
    ips: whole('ips', 65_536),
    concurrency: whole('concurrency', 1024),
    publishEvery: whole('publish-every', 60_000),
    kvLag: whole('kv-lag', 600),
    short: parsed.short,
    long: parsed.long,
    rules: [rule('short'), rule('long')],
    url: parsed.url?.replace(/\/+$/, ''),
    token: parsed.token,
    json: parsed.json,
  }
}

function usage(message) {
  console.error(`${message}\n\n${USAGE}`)
  process.exit(2)
}

/** Traffic goes to this machine only. */
function isLoopback(url) {
  try {
    const host = new URL(url).hostname
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
  } catch {
    return false
  }
}
