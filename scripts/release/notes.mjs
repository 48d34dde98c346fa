/**
 * Release notes from change files. Each change adds a file to changes/ saying what it changes
 * for a caller, an operator or a developer; at release, `npm run release:notes` writes them into
 * CHANGELOG.md as the release's section, under the heading the version rule gives
 * (CONTRIBUTING.md#versions), and deletes them. `## [Unreleased]` stays empty between releases.
 *
 * A change file is Markdown with a front matter of its own:
 *
 *     ---
 *     kind: Fixed
 *     api: patch
 *     java: minor
 *     ---
 *
 *     Callers: what they see now, in a sentence or a paragraph.
 *
 * `kind` is the changelog's section (Keep a Changelog's, as the changelog's introduction reads
 * them against the compatibility promise); `api` is what the change asks of the API's version,
 * `java` of the Java client's (`none`, the default, when the client did not change). The release
 * takes the largest of each.
 */

export const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']
const BUMPS = ['none', 'patch', 'minor', 'major']
const API_BUMPS = BUMPS.slice(1)
/** The changes folder's own explanation, not a change. */
export const NOT_A_CHANGE = 'README.md'
export const UNRELEASED = '## [Unreleased]'
const RELEASE_HEADING =
  /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2} \(Java client (\d+\.\d+\.\d+)\)$/m

/** A change file's kind, bumps and text; throws naming `name` and what is wrong. */
export function parseChange(name, text) {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text.replaceAll('\r\n', '\n'))
  if (match === null) throw new Error(`${name}: no front matter (--- kind, api, java ---)`)
  const fields = {}
  for (const line of match[1].split('\n')) {
    if (line.trim() === '') continue
    const field = /^(\w+):\s*(\S+)\s*$/.exec(line)
    if (field === null) throw new Error(`${name}: "${line}" is not "name: value"`)
    fields[field[1]] = field[2]
  }
  const { kind, api, java = 'none', ...rest } = fields
  const unknown = Object.keys(rest)
  if (unknown.length > 0) throw new Error(`${name}: unknown field ${unknown.join(', ')}`)
  if (!KINDS.includes(kind)) throw new Error(`${name}: kind must be one of ${KINDS.join(', ')}`)
  if (!API_BUMPS.includes(api))
    throw new Error(`${name}: api must be one of ${API_BUMPS.join(', ')}`)
  if (!BUMPS.includes(java)) throw new Error(`${name}: java must be one of ${BUMPS.join(', ')}`)
  // A change file links from changes/ (`../docs/api.md`), so the link check reads it where it
  // stands; in CHANGELOG.md, one folder up, the same link loses its `../`.
  const body = match[2].trim().replaceAll('](../', '](')
  if (body === '') throw new Error(`${name}: says nothing below its front matter`)
  return { name, kind, api, java, body }
}

/** `version` raised by `bump` (`none` leaves it). */
export function bumped(version, bump) {
  const [major, minor, patch] = version.split('.').map(Number)
  if (bump === 'major') return `${major + 1}.0.0`
  if (bump === 'minor') return `${major}.${minor + 1}.0`
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`
  return version
}

/** The largest of `bumps`. */
const largest = (bumps) => BUMPS[Math.max(0, ...bumps.map((bump) => BUMPS.indexOf(bump)))]

/** A change's text as one entry of a list: a bullet, its further lines indented under it. */
function entry(body) {
  if (body.startsWith('- ')) return body
  return `- ${body.split('\n').join('\n  ').replaceAll('\n  \n', '\n\n')}`
}

/**
 * `changelog` with the release of `changes` (parsed) written under `## [Unreleased]`: the API's
 * and the Java client's versions raised from the newest release's, `date` (YYYY-MM-DD, UTC), the
 * entries by kind in Keep a Changelog's order, each kind's in the order given.
 */
export function withRelease(changelog, changes, date) {
  if (changes.length === 0) throw new Error('no change files: nothing to release')
  const start = changelog.indexOf(`${UNRELEASED}\n`)
  if (start < 0) throw new Error(`CHANGELOG.md has no "${UNRELEASED}"`)
  const newest = RELEASE_HEADING.exec(changelog)
  if (newest === null) throw new Error('CHANGELOG.md has no release heading to count from')
  const between = changelog.slice(start + UNRELEASED.length, newest.index)
  if (between.trim() !== '') {
    throw new Error(`"${UNRELEASED}" is not empty: move its entries into change files first`)
  }
  const api = bumped(newest[1], largest(changes.map((change) => change.api)))
  const java = bumped(newest[2], largest(changes.map((change) => change.java)))
  const sections = KINDS.flatMap((kind) => {
    const entries = changes.filter((change) => change.kind === kind).map((c) => entry(c.body))
    return entries.length === 0 ? [] : [`### ${kind}\n\n${entries.join('\n')}\n`]
  })
  const release = `## [${api}] - ${date} (Java client ${java})\n\n${sections.join('\n')}\n`
  return {
    api,
    java,
    changelog: `${changelog.slice(0, start)}${UNRELEASED}\n\n${release}${changelog.slice(newest.index)}`,
  }
}

/** The text of `## [Unreleased]`, up to the next release heading (empty between releases). */
export function unreleasedOf(changelog) {
  const start = changelog.indexOf(`${UNRELEASED}\n`)
  if (start < 0) throw new Error(`CHANGELOG.md has no "${UNRELEASED}"`)
  const rest = changelog.slice(start + UNRELEASED.length)
  const next = rest.search(/^## \[/m)
  return (next < 0 ? rest : rest.slice(0, next)).trim()
}
