/**
 * `npm run release:notes [-- --date YYYY-MM-DD]`: writes the release's section of CHANGELOG.md
 * from the change files of changes/ (./notes.mjs says their form), deletes them, and says the
 * versions the release takes. Run from the repository's folder (npm runs it there); the date is
 * today's, UTC, unless given.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { NOT_A_CHANGE, parseChange, withRelease } from './notes.mjs'

const { values } = parseArgs({
  options: { date: { type: 'string', default: new Date().toISOString().slice(0, 10) } },
})
if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date)) {
  console.error(`--date ${values.date}: give it as YYYY-MM-DD`)
  process.exit(1)
}

const folder = 'changes'
const names = readdirSync(folder)
  .filter((name) => name.endsWith('.md') && name !== NOT_A_CHANGE)
  .sort()
try {
  const changes = names.map((name) => parseChange(name, readFileSync(join(folder, name), 'utf8')))
  const release = withRelease(readFileSync('CHANGELOG.md', 'utf8'), changes, values.date)
  writeFileSync('CHANGELOG.md', release.changelog)
  for (const name of names) rmSync(join(folder, name))
  const files = names.length === 1 ? '1 change file' : `${names.length} change files`
  const java = changes.some((change) => change.java !== 'none')
    ? `  ${release.java} in clients/java/pom.xml and clients/java/README.md`
    : `  (the Java client stays at ${release.java})`
  console.log(
    `CHANGELOG.md: ${release.api} - ${values.date} (Java client ${release.java}), ` +
      `from ${files} (deleted). Then:\n` +
      `  npm version ${release.api} --no-git-tag-version\n` +
      '  npm run openapi:release\n' +
      java,
  )
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
