/**
 * Release notes come from change files (changes/README.md): every file of changes/ has the form
 * `npm run release:notes` reads, the README's own example too, and the changelog's
 * `## [Unreleased]` stays empty, so entries go into change files, not into the shared file.
 */
import { describe, expect, it } from 'vitest'
import changelog from '../../CHANGELOG.md?raw'
import readme from '../../changes/README.md?raw'
import { NOT_A_CHANGE, parseChange, unreleasedOf } from '../../scripts/release/notes.mjs'

const FILES = import.meta.glob<string>('../../changes/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
})
const CHANGES = Object.entries(FILES)
  .map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1), text] as const)
  .filter(([name]) => name !== NOT_A_CHANGE)

describe('the change files', () => {
  it.each(CHANGES)('%s has a kind, the bumps it asks for and its entry', (name, text) => {
    expect(() => parseChange(name, text)).not.toThrow()
  })

  it("are written as changes/README.md's example is, which the script reads", () => {
    const example = /```markdown\n([\s\S]*?)```/.exec(readme)![1]!
    expect(parseChange('example', example)).toMatchObject({ kind: 'Fixed', api: 'patch' })
  })
})

describe('the changelog', () => {
  it('keeps "## [Unreleased]" empty: each change adds a change file instead', () => {
    expect(
      unreleasedOf(changelog),
      'entries go into changes/<name>.md (changes/README.md), not under ## [Unreleased]',
    ).toBe('')
  })
})
