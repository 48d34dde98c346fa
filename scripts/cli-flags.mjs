/** Reading wrangler-style flags from a command line, for the scripts that pass them on to wrangler. */

/** Every value given to `name` in `flags`, as `--name value ...` (wrangler's arrays) or `--name=value`. */
export function flagValues(flags, name) {
  const values = []
  for (let i = 0; i < flags.length; i++) {
    if (flags[i].startsWith(`${name}=`)) values.push(flags[i].slice(name.length + 1))
    else if (flags[i] === name) {
      while (i + 1 < flags.length && !flags[i + 1].startsWith('--')) values.push(flags[++i])
    }
  }
  return values
}
