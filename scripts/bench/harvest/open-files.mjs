/**
 * The files the section's workerd holds open, read from /proc (Linux; elsewhere every count is
 * `null`). Miniflare opens about three files per SQLite-backed Durable Object and keeps them
 * while the object lives, and the process may hold only as many as its `Max open files`: past
 * it, storage fails (a `503 unavailable` with `Retry-After` 1). Counting them at each step says
 * whether a run came near that limit, and whether the workerd of an earlier run is still there.
 */
import { readFileSync, readdirSync } from 'node:fs'

/** The workerd processes this Node process started (one per Miniflare), by pid. */
export function workerdProcesses() {
  let names
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  const pids = []
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    try {
      // `pid (comm) state ppid ...`: comm may hold spaces, so split after its closing parenthesis.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const comm = stat.slice(stat.indexOf('(') + 1, close)
      const ppid = Number(stat.slice(close + 2).split(' ')[1])
      if (ppid === process.pid && comm.startsWith('workerd')) pids.push(Number(name))
    } catch {
      // Ended while listed.
    }
  }
  return pids
}

/** Files `pid` holds open, or `null` when it is gone (or there is no /proc). */
export function openFiles(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length
  } catch {
    return null
  }
}

/** The soft limit of open files of `pid`, or `null`. */
export function openFileLimit(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'))
    const soft = Number(line?.split(/\s{2,}/)[1])
    return Number.isFinite(soft) ? soft : null
  } catch {
    return null
  }
}
