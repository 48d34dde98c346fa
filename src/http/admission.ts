/**
 * A request's admission: the rate limiter's verdict, as a promise the route awaits. The limiter
 * (src/rate-limit/) sets it and hands the request on at once, so the route can start reading
 * while the limiter decides, and both waits overlap. The route awaits its admission before it
 * answers or asks any source beyond its first, and drops what it started when the admission
 * is refused. A route without a limiter in front of it is admitted at once.
 */
import type { Context } from 'hono'

declare module 'hono' {
  interface ContextVariableMap {
    admission: Promise<void>
  }
}

const ADMITTED = Promise.resolve()

/** Sets the request's admission: it rejects with the refusal (a thrown failure) when refused. */
export function setAdmission(c: Context, admission: Promise<void>): void {
  // A route may fail before it awaits its admission; the limiter then awaits it itself.
  admission.catch(() => {})
  c.set('admission', admission)
}

/** Resolves once the request is admitted; rejects with the refusal. */
export function admission(c: Context): Promise<void> {
  return c.get('admission') ?? ADMITTED
}
