/**
 * The adversarial publishes timed against the benign one (shapes.mjs), on the shared workerd's
 * `service` Worker: each body published once to warm up, then in rounds, the order rotated each
 * round (lib/stats.mjs `interleave`). Each publish's wall time and workerd's CPU time are kept;
 * a shape's ratio is the median over rounds of its time divided by the benign publish's in the
 * same round.
 */
import { EDITOR_EXPORTS_PATH } from '../../../src/contract/routes.ts'
import { cpuMillis, workerdPids } from '../lib/load.mjs'
import { interleave, median, pairedRatio } from '../lib/stats.mjs'

/**
 * `bodies`: name → bytes, `benign` among them; `benignOf`: the benign body a shape is timed
 * against when not `benign` (one of its size). Returns each one's times and ratios.
 */
export async function timePublishes({ url, token, bodies, benign, benignOf = {}, rounds, log }) {
  const pids = workerdPids()
  const publish = async (name) => {
    const cpu = cpuMillis(pids)
    const started = performance.now()
    const response = await fetch(`${url}${EDITOR_EXPORTS_PATH}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: bodies[name],
    })
    const text = await response.text()
    const wallMs = performance.now() - started
    const after = cpuMillis(pids)
    if (response.status !== 201 && response.status !== 400) {
      throw new Error(`publish of ${name}: ${response.status} ${text}`)
    }
    const reason = response.status === 400 ? JSON.parse(text).code : null
    const cpuMs = after.user + after.system - cpu.user - cpu.system
    return { status: response.status, reason, wallMs, cpuMs }
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
