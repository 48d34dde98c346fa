/**
 * The verdicts of the selectors an export has already shown, looked up by the selector's
 * characters where they stand in a text, without making a string of them.
 *
 * Why not a `Map` keyed by the selector: in workerd, looking a string up in a `Map` or a `Set`
 * keeps about that string's size in memory until the next full collection when the string is
 * new. A model repeats a few hundred selectors and costs nothing so, but an export whose every
 * selector is new (a distinct `distance` each) kept about 20 MiB more than a benign one of the
 * same size (docs/performance.md, "Adversarial publishes"). Numbers as keys keep nothing.
 *
 * A lookup compares the selector with the kept ones of its hash only, and a hash keeps a few:
 * selectors made to share a hash cost a few comparisons each, never a list.
 */

/** Selectors kept per hash: beyond them, a selector is checked again each time. */
const MAX_PER_HASH = 4

/**
 * Kept in arrays side by side rather than an object each: what a check keeps is what the
 * collector copies, and a few hundred KiB more of it grow the heap by MiBs (docs/performance.md).
 */
export class SelectorCache<T> {
  /** The index of the first selector kept of each hash. */
  private readonly firstOfHash = new Map<number, number>()
  private readonly selectors: string[] = []
  private readonly verdicts: T[] = []
  /** The index of the next selector of the same hash, or -1. */
  private readonly nextOfHash: number[] = []
  private readonly max: number
  private readonly maxChars: number
  private chars = 0

  /** Keeps at most `max` selectors, of `maxChars` characters in all. */
  constructor(max: number, maxChars: number) {
    this.max = max
    this.maxChars = maxChars
  }

  /**
   * The verdict kept for the selector at `[from, to)` of `text`, or undefined. With
   * `plainOnly`, a selector holding a backslash is never found (undefined), so that a text
   * spelled with JSON escapes is not taken for the decoded one.
   */
  get(text: string, from: number, to: number, plainOnly = false): T | undefined {
    const hash = hashOf(text, from, to, plainOnly)
    if (hash < 0) return undefined
    let index = this.firstOfHash.get(hash) ?? -1
    while (index >= 0) {
      const selector = this.selectors[index]!
      if (selector.length === to - from && text.startsWith(selector, from)) {
        return this.verdicts[index]
      }
      index = this.nextOfHash[index]!
    }
    return undefined
  }

  /** Keeps the verdict of `selector`, while there is room. */
  set(selector: string, verdict: T): void {
    if (this.selectors.length >= this.max || this.chars + selector.length > this.maxChars) return
    const hash = hashOf(selector, 0, selector.length, false)
    const first = this.firstOfHash.get(hash) ?? -1
    let count = 0
    for (let index = first; index >= 0; index = this.nextOfHash[index]!) count++
    if (count >= MAX_PER_HASH) return
    this.firstOfHash.set(hash, this.selectors.length)
    // A copy of its own: a selector cut from a larger text would keep all of that text.
    this.selectors.push(internalized(selector))
    this.chars += selector.length
    this.verdicts.push(verdict)
    this.nextOfHash.push(first)
  }
}

/**
 * FNV-1a over the UTF-16 units of `[from, to)`, within 30 bits (a small integer in V8: a key
 * that needs no allocation); -1 when `plainOnly` and one of them is `\`.
 */
function hashOf(text: string, from: number, to: number, plainOnly: boolean): number {
  let hash = 0x811c9dc5
  for (let at = from; at < to; at++) {
    const unit = text.charCodeAt(at)
    if (plainOnly && unit === 0x5c) return -1
    hash = Math.imul(hash ^ unit, 0x01000193)
  }
  return hash & 0x3fffffff
}

/**
 * `text` as V8 keeps a property name: one copy of its characters, in the old generation, holding
 * no larger text alive. What the cache keeps is then never copied by the young generation's
 * collections, whose growth a few hundred KiB of survivors would set off (docs/performance.md).
 */
function internalized(text: string): string {
  const names: Record<string, true> = { [text]: true }
  return Object.keys(names)[0]!
}
