/**
 * docs/bench-latest.json as `--save` keeps it: a whole run replaces it, a run of some sections
 * (`--only a,b --save`) replaces only theirs. Each section's figures and rows then come from the
 * run it last ran in, and `sections` records that run per section: its commit, when it started,
 * the load average around it and how long the section took. The top level (`startedAt`,
 * `machine`, `seconds`) stays the latest whole run's.
 *
 * A section's rows are those whose `area` is its name (BENCH-CONTRACT: scripts/bench/README.md,
 * "A section"). Its rows are computed again from the merged figures, so a row that reads another
 * section's figures (the limiter's cost rows read the request section's CPU) reads them as saved.
 */

/**
 * The record of a section in `sections`: the run it last ran in. `seconds` is the section's own
 * time (its phases), `runSeconds` the whole run's (bundles and the shared workerd included).
 */
function sectionRecord(run, seconds, { only, quick }) {
  return {
    startedAt: run.startedAt,
    commit: run.machine.commit,
    uncommittedChanges: run.machine.uncommittedChanges,
    loadavgBefore: run.machine.loadavgBefore,
    loadavgAfter: run.machine.loadavgAfter,
    seconds: seconds ?? null,
    runSeconds: run.seconds,
    only,
    quick,
  }
}

/**
 * The copy to save after a run. `run` is the run's results (its `rows` computed), `names` the
 * sections it ran (all of them for a whole run), `seconds` each one's own time by name, `keys`
 * the figure keys each returned, `order` every section's name in table order, `rowsOf` the rows
 * of some sections computed on given figures, `saved` the copy saved so far (null: none), and
 * `options` the run's `only` and `quick`.
 */
export function savedCopy({ run, names, seconds, keys, order, rowsOf, saved, options }) {
  const whole = order.every((name) => names.includes(name))
  if (!whole && options.quick) throw new Error('--save keeps full runs: drop --quick')
  if (whole || saved === null) {
    const sections = Object.fromEntries(
      names.map((name) => [name, sectionRecord(run, seconds[name], options)]),
    )
    return { ...run, sections }
  }
  const merged = { ...saved }
  for (const name of names) for (const key of keys[name] ?? []) merged[key] = run[key]
  merged.config = { ...saved.config, ...pick(run.config, names) }
  const fresh = rowsOf(names, merged)
  const stray = fresh.filter((row) => !names.includes(row.area))
  if (stray.length > 0) {
    throw new Error(`rows of areas that are not a section run: ${stray.map((r) => r.area)}`)
  }
  const known = new Set(order)
  merged.rows = [
    ...order.flatMap((name) =>
      (names.includes(name) ? fresh : saved.rows).filter((row) => row.area === name),
    ),
    ...saved.rows.filter((row) => !known.has(row.area)),
  ]
  const before = saved.sections ?? {}
  merged.sections = Object.fromEntries(
    order.map((name) => [
      name,
      names.includes(name)
        ? sectionRecord(run, seconds[name], options)
        : (before[name] ?? sectionRecord(saved, null, { only: null, quick: false })),
    ]),
  )
  return merged
}

function pick(object, names) {
  return Object.fromEntries(Object.entries(object ?? {}).filter(([key]) => names.includes(key)))
}
