#!/usr/bin/env node
/**
 * Counts the names each room of `src/` exports through its faces: `index.ts`, and `testing.ts`,
 * the second face that only tests and the bench may import. Prints one row per room and the
 * totals; `--json` prints the same as JSON. Usage: `node scripts/house/count-testing-names.mjs`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

const SRC = new URL('../../src/', import.meta.url).pathname

/** The names a module exports by its own statements (a re-export of `*` counts as one). */
export function exportedNames(path) {
  const text = readFileSync(path, 'utf8')
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const names = []
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause
      if (clause === undefined) names.push('*')
      else if (ts.isNamedExports(clause)) names.push(...clause.elements.map((e) => e.name.text))
      else names.push(clause.name.text)
      continue
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false
    if (!exported) continue
    if (ts.isVariableStatement(statement)) {
      names.push(...statement.declarationList.declarations.map((d) => d.name.getText(source)))
    } else if (statement.name !== undefined) names.push(statement.name.text)
  }
  return names
}

/** One row per room of `src/`: its face's and its testing face's exported names. */
export function countFaces(src = SRC) {
  return readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name: room }) => {
      const face = join(src, room, 'index.ts')
      const testing = join(src, room, 'testing.ts')
      return {
        room,
        face: existsSync(face) ? exportedNames(face).length : null,
        testing: existsSync(testing) ? exportedNames(testing) : [],
      }
    })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = countFaces()
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(rows, null, 2))
  } else {
    const withTesting = rows.filter((row) => row.testing.length > 0)
    for (const { room, face, testing } of rows) {
      const names = testing.length === 0 ? '' : `  ${testing.join(', ')}`
      console.log(
        `${room.padEnd(14)} face ${String(face ?? '-').padStart(3)}  testing ${String(testing.length).padStart(3)}${names}`,
      )
    }
    const total = withTesting.reduce((sum, row) => sum + row.testing.length, 0)
    console.log(`testing.ts: ${total} names in ${withTesting.length} rooms`)
  }
}
