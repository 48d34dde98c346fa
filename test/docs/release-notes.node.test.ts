/**
 * `npm run release:notes` (scripts/release/write-notes.mjs) on a changelog and change files in a
 * temporary folder: it writes the release's section under the heading the version rule gives,
 * deletes the change files, and refuses, changing nothing, what it cannot release.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const SCRIPT = fileURLToPath(new URL('../../scripts/release/write-notes.mjs', import.meta.url))

const CHANGELOG = `# Changelog

What changed.

## [Unreleased]

## [1.2.0] - 2026-12-06 (Java client 0.5.0)

### Added

- An older entry.
`

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** The script run in a fresh folder holding `changelog` and `changes` (name to text). */
function release(changes: Record<string, string>, changelog = CHANGELOG, ...args: string[]) {
  const folder = mkdtempSync(join(tmpdir(), 'release-notes-'))
  folders.push(folder)
  mkdirSync(join(folder, 'changes'))
  writeFileSync(join(folder, 'CHANGELOG.md'), changelog)
  writeFileSync(join(folder, 'changes', 'README.md'), '# Change files\n')
  for (const [name, text] of Object.entries(changes)) {
    writeFileSync(join(folder, 'changes', name), text)
  }
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: folder, encoding: 'utf8' })
  return {
    status: run.status,
    output: run.stdout + run.stderr,
    changelog: readFileSync(join(folder, 'CHANGELOG.md'), 'utf8'),
    left: (name: string) => existsSync(join(folder, 'changes', name)),
  }
}

const change = (front: string, body: string) => `---\n${front}\n---\n\n${body}\n`

describe('npm run release:notes', () => {
  it('writes the release under its heading, by kind, and deletes the change files', () => {
    const run = release(
      {
        'b-header.md': change(
          'kind: Added\napi: minor',
          'Callers: `X-New` on every `200`,\nlisted in the CORS headers.',
        ),
        'a-fix.md': change(
          'kind: Fixed\napi: patch\njava: patch',
          'Callers: a fix ([api](../docs/api.md#errors)).',
        ),
        'c-docs.md': change('kind: Changed\napi: patch', '- Developers: one.\n- Operators: two.'),
        'a-word.md': change('kind: Added\napi: patch', 'Developers: a word.'),
      },
      CHANGELOG,
      '--date',
      '2026-12-07',
    )
    expect(run.output).toContain('CHANGELOG.md: 1.3.0 - 2026-12-07 (Java client 0.5.1)')
    expect(run.status).toBe(0)
    expect(run.changelog).toBe(`# Changelog

What changed.

## [Unreleased]

## [1.3.0] - 2026-12-07 (Java client 0.5.1)

### Added

- Developers: a word.
- Callers: \`X-New\` on every \`200\`,
  listed in the CORS headers.

### Changed

- Developers: one.
- Operators: two.

### Fixed

- Callers: a fix ([api](docs/api.md#errors)).

## [1.2.0] - 2026-12-06 (Java client 0.5.0)

### Added

- An older entry.
`)
    for (const name of ['a-fix.md', 'a-word.md', 'b-header.md', 'c-docs.md']) {
      expect(run.left(name), name).toBe(false)
    }
    expect(run.left('README.md')).toBe(true)
  })

  it('keeps the Java client at its version when no change asks for more', () => {
    const run = release({ 'x.md': change('kind: Removed\napi: major', 'Callers: gone.') })
    expect(run.status).toBe(0)
    expect(run.changelog).toMatch(
      /^## \[2\.0\.0\] - \d{4}-\d{2}-\d{2} \(Java client 0\.5\.0\)\n\n### Removed\n\n- Callers: gone\.\n$/m,
    )
  })

  /** A release of one change file, `x.md`. */
  const oneChange = (front: string, body = 'Text.') => ({ 'x.md': change(front, body) })

  it.each<[string, Record<string, string>, string, string?]>([
    ['no change file', {}, 'no change files'],
    [
      'a kind the changelog has no section for',
      oneChange('kind: Improved\napi: patch'),
      'x.md: kind must be one of Added, Changed, Deprecated, Removed, Fixed, Security',
    ],
    [
      'a change without the API bump',
      oneChange('kind: Fixed'),
      'x.md: api must be one of patch, minor, major',
    ],
    [
      'a change file without its text',
      oneChange('kind: Fixed\napi: patch', ''),
      'x.md: says nothing below its front matter',
    ],
    [
      'entries left under Unreleased',
      oneChange('kind: Fixed\napi: patch'),
      '"## [Unreleased]" is not empty: move its entries into change files first',
      CHANGELOG.replace('## [Unreleased]\n', '## [Unreleased]\n\n- Stray entry.\n'),
    ],
  ])('refuses %s, changing nothing', (_, changes, message, changelog = CHANGELOG) => {
    const run = release(changes, changelog)
    expect(run.output).toContain(message)
    expect(run.status).toBe(1)
    expect(run.changelog).toBe(changelog)
    for (const name of Object.keys(changes)) expect(run.left(name)).toBe(true)
  })
})
