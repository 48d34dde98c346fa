/** Rejects with `TimeoutError` unless `promise` settles within `ms`; the loser is not cancelled. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let fail: (reason: Error) => void = () => {}
  const timeout = new Promise<never>((_, reject) => (fail = reject))
  const timer = setTimeout(() => fail(new TimeoutError(`${what}: no answer within ${ms} ms`)), ms)
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** A dependency (KV, a Durable Object) did not answer in time. */
export class TimeoutError extends Error {
  override name = 'TimeoutError'
}
