/** The machine a run ran on (bench-results/latest.json's `machine`): cores, memory, versions. */
import { execSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'

export function machine(root) {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8')
  const shell = (command) => {
    try {
      return execSync(command, { encoding: 'utf8' }).trim()
    } catch {
      return null
    }
  }
  const version = (name) =>
    JSON.parse(readFileSync(join(root, `node_modules/${name}/package.json`), 'utf8')).version
  return {
    nproc: Number(shell('nproc')) || os.availableParallelism(),
    cpuModel: /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model,
    memory: shell('free -h'),
    node: process.version,
    workerd: version('workerd'),
    miniflare: version('miniflare'),
    loadavgBefore: os.loadavg(),
    commit: shell('git rev-parse --short HEAD'),
    uncommittedChanges: shell('git status --porcelain --untracked-files=no')?.length > 0,
  }
}
