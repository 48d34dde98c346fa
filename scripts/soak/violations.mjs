/** What the soak found wrong, by kind: a count and the first five examples of each. */

export class Violations {
  /** @type {Map<string, { count: number, examples: string[] }>} */
  byKind = new Map()

  add(kind, detail) {
    const entry = this.byKind.get(kind) ?? { count: 0, examples: [] }
    entry.count++
    if (entry.examples.length < 5) entry.examples.push(detail)
    this.byKind.set(kind, entry)
  }

  count(kind) {
    return this.byKind.get(kind)?.count ?? 0
  }
}
