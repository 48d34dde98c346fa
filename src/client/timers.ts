/**
 * Waits and deadlines that hold for any length. `setTimeout` keeps its delay in a signed 32-bit
 * number of milliseconds: a longer delay (over 24.8 days) fires after 1 ms, so a long
 * `Retry-After` would turn into a storm of requests. Longer waits are chained timers instead.
 */

/** The longest delay `setTimeout` holds: 2^31 - 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** Resolves after `ms` (any length), or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    let left = ms
    let timer: ReturnType<typeof setTimeout> | undefined
    const onAbort = () => {
      if (timer !== undefined) clearTimeout(timer)
      reject(signal?.reason)
    }
    const arm = () => {
      const step = Math.min(left, MAX_TIMER_MS)
      left -= step
      timer = setTimeout(() => {
        if (left > 0) return arm()
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, step)
    }
    arm()
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** A signal for one request: aborts with the caller's reason, or with a `TimeoutError`. */
export interface RequestSignal {
  signal: AbortSignal
  /** Stops the timer and the forwarding; call once the request is over. */
  done(): void
}

/**
 * Aborts when `outer` does or after `timeoutSeconds` (none when it is `Infinity` or longer than
 * a timer holds), whichever comes first. The timeout's reason is a `DOMException` named
 * `TimeoutError`, as `AbortSignal.timeout` gives; a timer of our own, unlike that one, is cleared
 * when the request ends and follows fake clocks in tests.
 */
export function requestSignal(
  outer: AbortSignal | undefined,
  timeoutSeconds: number,
): RequestSignal {
  const controller = new AbortController()
  const forward = () => controller.abort(outer?.reason)
  if (outer?.aborted) forward()
  else outer?.addEventListener('abort', forward, { once: true })
  const ms = timeoutSeconds * 1000
  const timer =
    ms > MAX_TIMER_MS
      ? undefined
      : setTimeout(() => {
          const message = `No complete answer within ${timeoutSeconds} s (timeoutSeconds).`
          controller.abort(new DOMException(message, 'TimeoutError'))
        }, ms)
  return {
    signal: controller.signal,
    done() {
      if (timer !== undefined) clearTimeout(timer)
      outer?.removeEventListener('abort', forward)
    },
  }
}
