/**
 * Markdown the docs scripts write into pages that Prettier also formats, so it is written as
 * Prettier would write it: a rewrite of an unchanged page changes no byte.
 */

/** A Markdown table: every cell padded to its column's width, a `|` in a cell escaped. */
export function markdownTable(header, rows) {
  const cells = [header, ...rows].map((row) => row.map((cell) => cell.replaceAll('|', '\\|')))
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => row[column].length)))
  const line = (row) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`
  return [
    line(cells[0]),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...cells.slice(1).map(line),
  ].join('\n')
}

/** `text` as a code span. */
export const code = (text) => `\`${text}\``
