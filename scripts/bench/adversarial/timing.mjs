/**
 * The adversarial publishes timed against the benign one (shapes.mjs), on the shared workerd's
 * `service` Worker: each body published once to warm up, then in rounds, the order rotated each
 * round (lib/stats.mjs `interleave`). Each publish's wall time and workerd's CPU time are kept;
 * a shape's ratio is the median over rounds of its time divided by the benign publish's in the
 * same round. A body under `REPEATED_BELOW` bytes is published `REPEATS` times in a row per
 * measurement and its times divided by that: workerd's CPU time is read in 10 ms steps, and a
 * 2 MB publish takes 50-120 ms, so one step alone would move its ratio by 0.15-0.2x.
 */
import { EDITOR_EXPORTS_PATH } from '../../../src/contract/routes.ts'
import { cpuMillis, workerdPids } from '../lib/load.mjs'
import { interleave, median, pairedRatio } from '../lib/stats.mjs'

/**
 * `bodies`: name → bytes, `benign` among them; `benignOf`: the benign body a shape is timed
 * against when not `benign` (one of its size). Returns each one's times and ratios.
 */
/** Bodies smaller than this are timed over `REPEATS` publishes in a row. */
const REPEATED_BELOW = 4 * 1024 * 1024
const REPEATS = 10

export async function timePublishes({ url, token, bodies, benign, benignOf = {}, rounds, log }) {
  const pids = workerdPids()
  const publishOnce = async (name) => {
    const response = await fetch(`${url}${EDITOR_EXPORTS_PATH}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: bodies[name],
    })
    const text = await response.text()
    if (response.status !== 201 && response.status !== 400) {
      throw new Error(`publish of ${name}: ${response.status} ${text}`)
    }
    return {
      status: response.status,
      reason: response.status === 400 ? JSON.parse(text).code : null,
    }
  }
  const publish = async (name) => {
    const repeats = bodies[name].length < REPEATED_BELOW ? REPEATS : 1
    const cpu = cpuMillis(pids)
    const started = performance.now()
    let answer
    for (let i = 0; i < repeats; i++) answer = await publishOnce(name)
    const wallMs = (performance.now() - started) / repeats
    const after = cpuMillis(pids)
    const cpuMs = (after.user + after.system - cpu.user - cpu.system) / repeats
    return { ...answer, wallMs, cpuMs, repeats }
  }
  const names = Object.keys(bodies)
  for (const name of names) {
    log(`adversarial publish: warm-up ${name}`)
    await publish(name)
  }
  const runs = await interleave(names, rounds, (name) => publish(name))
  const figures = {}
  for (const name of names) {
    const list = runs[name]
    const against = runs[benignOf[name] ?? benign]
    figures[name] = {
      bytes: bodies[name].length,
      statuses: [...new Set(list.map((r) => r.status))],
      reasons: [...new Set(list.map((r) => r.reason).filter((r) => r !== null))],
      wallMs: median(list.map((r) => r.wallMs)),
      cpuMs: median(list.map((r) => r.cpuMs)),
      ratio: pairedRatio(
        list.map((r) => r.wallMs),
        against.map((r) => r.wallMs),
      ),
      cpuRatio: pairedRatio(
        list.map((r) => r.cpuMs),
        against.map((r) => r.cpuMs),
      ),
      rounds: list,
    }
  }
  return figures
}
