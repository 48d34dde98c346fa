/**
 * What could not be read or drawn, in words, bounded: an export can hold a problem per display
 * or per command, and a name inside one (an animation's key, a tag) as long as the export
 * itself. A 301 KB export whose every frame repeated a 150,000-character key once drove the
 * page's heap to a gigabyte. So the first MAX_PROBLEMS are kept, each at most MAX_PROBLEM_CHARS
 * long with the names in it cut to MAX_NAME_CHARS, and the rest are only counted.
 */

/** Problems kept in words; the rest are counted. */
export const MAX_PROBLEMS = 100
/** The longest problem message, in characters. */
export const MAX_PROBLEM_CHARS = 300
/** The longest name (key, tag) quoted inside a message, in characters. */
export const MAX_NAME_CHARS = 40

/** Problems in words, and how many more there were. */
export interface Problems {
  list: string[]
  more: number
}

/** No problem yet. */
export function noProblems(): Problems {
  return { list: [], more: 0 }
}

/** Notes a problem: kept in words while there is room, else counted. */
export function noteProblem(into: Problems, text: string): void {
  if (into.list.length < MAX_PROBLEMS) into.list.push(clip(text, MAX_PROBLEM_CHARS))
  else into.more++
}

/** A name as a message quotes it: its first MAX_NAME_CHARS characters. */
export function nameOf(name: string): string {
  return clip(name, MAX_NAME_CHARS)
}

/** The total: kept and counted. */
export function problemCount(problems: Problems): number {
  return problems.list.length + problems.more
}

/** Several lists as one, still bounded. */
export function joinProblems(...all: Problems[]): Problems {
  const joined = noProblems()
  for (const problems of all) {
    for (const text of problems.list) noteProblem(joined, text)
    joined.more += problems.more
  }
  return joined
}

function clip(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text
}
