/**
 * Admissions this isolate answered with anything but a miss, waiting to be handed to their
 * object with the next call this isolate makes to it (docs/rate-limits.md#bursts). A hit costs one
 * call, so its reservation cannot be given back on its own; riding on the next call, it is given
 * back at once when the client or its neighbours keep asking, and lapses by itself otherwise.
 */
import type { AnsweredAdmission } from './rate-limiter'

/** Admissions kept per object: beyond these, the oldest lapse by themselves instead. */
const MAX_PER_OBJECT = 256
/** Objects with admissions kept; the one least recently added to is dropped first. */
const MAX_OBJECTS = 10_000

export class AnsweredAdmissions {
  private readonly byObject = new Map<string, AnsweredAdmission[]>()

  /** Keeps an answered admission of the object named `name`. */
  add(name: string, admission: AnsweredAdmission): void {
    const kept = this.byObject.get(name) ?? []
    this.byObject.delete(name)
    if (this.byObject.size >= MAX_OBJECTS) {
      const oldest = this.byObject.keys().next()
      if (!oldest.done) this.byObject.delete(oldest.value)
    }
    if (kept.length >= MAX_PER_OBJECT) kept.shift()
    kept.push(admission)
    this.byObject.set(name, kept)
  }

  /** The admissions kept for the object named `name`, handed over: none are kept after. */
  take(name: string): AnsweredAdmission[] {
    const kept = this.byObject.get(name)
    if (kept === undefined) return []
    this.byObject.delete(name)
    return kept
  }
}
