/**
 * The harvest simulation's clock: runs actors (actors.mjs) against the service (service.mjs)
 * from `start` for `durationMs` of simulated time. Every actor due at the same instant sends at
 * once, in one step: their requests are in flight together, as they would be.

 */
export async function runActors(service, actors, { start, durationMs }) {
  const end = start + durationMs
  const began = performance.now()
  let now = start
  for (;;) {
    const due = actors.filter((a) => a.due !== null && a.due < end)
    if (due.length === 0) break
    now = Math.min(...due.map((a) => a.due))
    const sending = []
    const requests = []
    for (const actor of due) {
      if (actor.due !== now) continue
      const own = actor.requests(now)
      if (own.length === 0) continue
      sending.push([actor, requests.length, own.length])
      requests.push(...own)
    }
    if (requests.length === 0) continue
    const answers = await service.step(now, requests)
    for (const [actor, from, length] of sending) {
      actor.answered(now, answers.slice(from, from + length))
    }
  }
  return { coveredMs: durationMs, realSeconds: (performance.now() - began) / 1000 }
}
