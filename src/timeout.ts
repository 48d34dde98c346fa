/** Rejects with `TimeoutError` unless `promise` settles within `ms`; the loser is not cancelled. */
export function withTimeout<T>(promise: PromiseLike<T>, ms: number, what: string): Promise<T> {
  // One promise and one timer per call, no race or finally: it is on every request, thrice.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new TimeoutError(`${what}: no answer within ${ms} ms`)),
      ms,
    )
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (reason: unknown) => {
        clearTimeout(timer)
        reject(reason)
      },
    )
  })
}

/** A dependency (KV, a Durable Object) did not answer in time. */
export class TimeoutError extends Error {
  override name = 'TimeoutError'
}
