/**
 * Reading the docs as the doc tests (test/docs/) check them: prose without code blocks, a
 * section by its heading, a table's rows as cells, and the words in backticks of a cell.
 */

/** `markdown` without its fenced code blocks, one string with every run of whitespace one space. */
export function prose(markdown: string): string {
  return flat(markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, ''))
}

/** `text` with every run of whitespace (line breaks included) one space. */
export function flat(text: string): string {
  return text.replace(/\s+/g, ' ')
}

/** The text under `heading` (a whole heading line, `## Logs`), up to the next heading of its level or higher. */
export function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length
  const lines = markdown.split('\n')
  const start = lines.indexOf(heading)
  if (start < 0) throw new Error(`no heading "${heading}"`)
  const end = lines.findIndex(
    (line, index) => index > start && new RegExp(`^#{1,${level}} `).test(line),
  )
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n')
}

/** The rows of the first table in `markdown` whose header line starts with `header`, as cells. */
export function tableRows(markdown: string, header: string): string[][] {
  const lines = markdown.split('\n')
  const start = lines.findIndex((line) => line.startsWith(header))
  if (start < 0) throw new Error(`no table whose header starts "${header}"`)
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    )
  }
  return rows
}

/** The words written in backticks in `text`, in order: `` `a`, `b` `` gives `['a', 'b']`. */
export function codeWords(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)
}
