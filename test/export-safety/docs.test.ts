import { describe, expect, it } from 'vitest'
import page from '../../docs/export-safety.md?raw'
import apiPage from '../../docs/api.md?raw'
import { UNSAFE_REASONS } from '../../src/client'
import vocabulary from '../../src/export-safety/types/vocabulary.json'
import { checkExportSafety } from '../../src/export-safety'
import { REFUSED_VECTORS } from '../support/export-safety-vectors'
import { OPENAPI_DOCUMENT } from '../../src/openapi'
// @ts-expect-error: a plain ES module of the scripts, without types
import { withDocTables } from '../../scripts/export-safety/doc-tables.mjs'

/**
 * docs/export-safety.md against src/export-safety/types/vocabulary.json: its generated tables are the
 * file's (`node scripts/export-safety/write-doc-tables.mjs`), and the reasons, limits and readers
 * it names by hand are the file's too; so are the reasons docs/api.md and the OpenAPI document
 * list.
 */

/** The first cells of the rows of the table whose header row starts with `header`. */
function firstColumn(text: string, header: string): string[] {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line.startsWith(header))
  expect(start, header).toBeGreaterThanOrEqual(0)
  const rows: string[] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(line.split('|')[1]!.trim())
  }
  return rows
}

describe('docs/export-safety.md and the vocabulary file', () => {
  it('holds the tables the file gives', () => {
    expect(page).toBe((withDocTables as (p: string, v: unknown) => string)(page, vocabulary))
  })

  it('tables, per reader, members the check reads, and every member it reads for some reader', () => {
    const read = new Set([
      ...vocabulary.names.content,
      ...vocabulary.names.datapack.map((name) => `datapack.${name}`),
    ])
    const tabled = new Set<string>()
    for (const rows of Object.values(vocabulary.readerMembers)) {
      for (const [member, , accepts] of rows) {
        tabled.add(member!)
        // The members a reader reads that the check refuses say so.
        if (!read.has(member!)) expect(accepts, member).toMatch(/^refused/)
      }
    }
    for (const member of read) {
      if (!['meta', 'Passengers', 'commands', 'datapack'].includes(member)) {
        expect([...tabled], member).toContain(member)
      }
    }
    expect(Object.keys(vocabulary.readerMembers).sort()).toEqual([...vocabulary.readers].sort())
  })

  it('names every reason, in the order of the file, which the check uses', () => {
    expect(firstColumn(page, '| `reason`')).toEqual(vocabulary.reasons.map((r) => `\`${r}\``))
    expect(UNSAFE_REASONS).toEqual(vocabulary.reasons)
    for (const reason of vocabulary.reasons) {
      expect(Object.keys(vocabulary.messages), reason).toContain(reason)
    }
  })

  it('names every limit with its value', () => {
    const rows = page
      .split('\n')
      .filter((line) => /^\| .*\(`max\w+`\)/.test(line))
      .map((line) => {
        const [, name, value] = /\(`(max\w+)`\)\s*\|\s*([^|]+?)\s*\|/.exec(line)!
        const number = value!.endsWith(' MiB')
          ? Number(value!.slice(0, -4)) * 1024 * 1024
          : Number(value!.replaceAll(',', ''))
        return [name, number]
      })
    expect(Object.fromEntries(rows)).toEqual(vocabulary.limits)
  })

  it('names the readers the check runs', () => {
    // The check names a reader by the file's name for it, where a refusal is that reader's.
    let named = 0
    for (const vector of REFUSED_VECTORS) {
      const verdict = checkExportSafety(vector.text)
      const reader = verdict.safe ? null : /under (\S+)'s own reader/.exec(verdict.message)
      if (verdict.safe || reader === null) continue
      expect(verdict, vector.file).toMatchObject({ reason: 'reader', found: reader[1] })
      expect(vocabulary.readers, vector.file).toContain(reader[1])
      named++
    }
    expect(named).toBeGreaterThan(1)
    for (const reader of vocabulary.readers) expect(page).toContain(`\`${reader}\``)
  })

  it('is listed whole in docs/api.md and the OpenAPI document', () => {
    const description = JSON.stringify(OPENAPI_DOCUMENT)
    for (const reason of vocabulary.reasons) {
      expect(apiPage, reason).toContain(`\`${reason}\``)
      expect(description, reason).toContain(`\`${reason}\``)
    }
  })
})
