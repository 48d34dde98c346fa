/**
 * A pause until the page's next task, in which it handles what waits (inputs, rendering): long
 * work split at these points never holds an input up for longer than one of its pieces.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
