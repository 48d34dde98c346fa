/**
 * One `npm start` per state folder: wrangler's local KV and Durable Objects are SQLite files that
 * a second workerd on the same folder finds locked (`SQLITE_BUSY`), and the second would also
 * take over the address file `npm run publish` reads. The holder writes its pid and address to a
 * file in the folder; a start that finds a living holder there refuses and names it, and one that
 * finds a holder gone (killed, crashed) takes its place.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'

/** The holder's file, inside the state folder it guards. */
const LOCK_FILE = 'npm-start.json'

/** The state folder `wrangler dev` uses without `--persist-to`. */
export const DEFAULT_STATE_DIR = '.wrangler/state'

export function lockFile(stateDir) {
  return join(stateDir, LOCK_FILE)
}

/**
 * Takes the folder for this process, serving on `url`. Returns `{ taken: true, stale }`
 * (`stale`: the pid of a holder that was gone, or null), or `{ taken: false, holder }` when a
 * living process holds it (`holder`: its `{ pid, url }`).
 */
export function takeFolder(stateDir, url) {
  mkdirSync(stateDir, { recursive: true })
  const file = lockFile(stateDir)
  let stale = null
  // Twice at most: once as found, once after removing a holder that is gone.
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd
    try {
      // Exclusive creation: of two starts at the same moment, exactly one gets the file.
      fd = openSync(file, 'wx')
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
      const holder = folderHolder(stateDir)
      if (holder !== null) return { taken: false, holder }
      stale = readHolder(file)?.pid ?? stale
      rmSync(file, { force: true })
      continue
    }
    writeSync(fd, `${JSON.stringify({ pid: process.pid, url })}\n`)
    closeSync(fd)
    return { taken: true, stale }
  }
  const holder = folderHolder(stateDir)
  return holder === null ? { taken: true, stale } : { taken: false, holder }
}

/** The living `npm start` holding `stateDir` (`{ pid, url }`), or null. */
export function folderHolder(stateDir) {
  const holder = readHolder(lockFile(stateDir))
  if (holder === null || holder.pid === process.pid) return null
  return isRunningStart(holder.pid) ? holder : null
}

/** Gives the folder up, if this process holds it. */
export function releaseFolder(stateDir) {
  const file = lockFile(stateDir)
  if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true })
}

function readHolder(file) {
  if (!existsSync(file)) return null
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8'))
    return Number.isInteger(holder.pid) ? holder : null
  } catch {
    // Half written by a start killed at that moment, or not ours: nobody holds the folder.
    return null
  }
}

/**
 * Whether `pid` is a living `npm start`. A pid is reused once its process is gone, so on Linux
 * the process must also be a start script and not a zombie; elsewhere a signal 0 is the test.
 */
function isRunningStart(pid) {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return error.code === 'EPERM'
  }
  const proc = `/proc/${pid}`
  if (!existsSync(proc)) return true
  try {
    const stat = readFileSync(`${proc}/stat`, 'utf8')
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false
    return readFileSync(`${proc}/cmdline`, 'utf8').includes('start.mjs')
  } catch {
    return false
  }
}

/** What wrangler keeps in a state folder: one folder per layout version (`v3`). */
const WRANGLER_STATE = /^v\d+$/

/**
 * Forgets what the service stored in `stateDir` (exports, rate-limit records, ID allocations):
 * wrangler's folders in it, and nothing else, whatever folder `--persist-to` named.
 */
export function clearState(stateDir) {
  if (!existsSync(stateDir)) return
  for (const entry of readdirSync(stateDir)) {
    if (WRANGLER_STATE.test(entry)) rmSync(join(stateDir, entry), { recursive: true, force: true })
  }
}
