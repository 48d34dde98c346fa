/**
 * The runbook's Durable Object migrations (docs/operations.md#the-first-time) and what it says of
 * rolling back across them (#roll-back), held to `wrangler.toml`'s `[[migrations]]`: a migration
 * added there and not to the runbook fails here.
 */
import { describe, expect, it } from 'vitest'
import operations from '../../docs/operations.md?raw'
import wranglerToml from '../../wrangler.toml?raw'
import { codeWords, prose, section, tableRows } from '../support/markdown'

interface Migration {
  tag: string
  creates: string[]
  deletes: string[]
}

/** The `[[migrations]]` tables of wrangler.toml, in order. */
function migrationsOfWranglerToml(): Migration[] {
  return wranglerToml
    .split(/^\[\[migrations\]\]$/m)
    .slice(1)
    .map((block) => {
      const body = block.split(/^\[/m)[0]!
      const list = (key: string) =>
        [
          ...(new RegExp(`^${key} = \\[(.*)\\]$`, 'm').exec(body)?.[1] ?? '').matchAll(
            /"([^"]+)"/g,
          ),
        ].map((match) => match[1]!)
      return {
        tag: /^tag = "([^"]+)"$/m.exec(body)![1]!,
        creates: list('new_sqlite_classes'),
        deletes: list('deleted_classes'),
      }
    })
}

describe("the runbook's migrations", () => {
  const migrations = migrationsOfWranglerToml()

  it('are those of wrangler.toml, each with the classes it creates and deletes', () => {
    expect(migrations.length).toBeGreaterThan(0)
    const rows = tableRows(section(operations, '### The first time'), '| migration ')
    expect(
      rows.map(([tag, creates, deletes]) => ({
        tag: codeWords(tag!)[0],
        creates: codeWords(creates!),
        deletes: codeWords(deletes!),
      })),
    ).toEqual(migrations)
  })

  it('name the newest one where they say what a rollback cannot cross', () => {
    const rollBack = prose(section(operations, '## Roll back'))
    expect(rollBack).toContain(`the newest is \`${migrations.at(-1)!.tag}\``)
  })
})
