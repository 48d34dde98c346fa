/**
 * Pauses until the page's next task, in which it handles what waits (inputs, rendering): long
 * work split at these points never holds an input up for longer than one of its pieces.
 */

/** Work done in one task at most before a pause, in milliseconds. */
const TASK_BUDGET_MS = 10

/**
 * A pause until the next task. A timer, which browsers stretch to 4 ms once timers nest: a
 * message channel's tasks, quicker, measured slower here (they ran ahead of the page's other
 * work, and a million-animation export took twice as long to show).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

/** Pauses only once TASK_BUDGET_MS have passed since the last pause: small work runs at once. */
export function taskPacer(): { pause(): Promise<void> } {
  let since = performance.now()
  return {
    async pause() {
      if (performance.now() - since < TASK_BUDGET_MS) return
      await nextTask()
      since = performance.now()
    },
  }
}
