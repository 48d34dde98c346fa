/**
 * What the rate limiter puts on a request's context: the client's address, parsed once, and the
 * request's admission, the promise a route awaits before it answers. The limiter sets the
 * admission and hands the request on at once, so the route can start reading while the limiter
 * decides, and both waits overlap. A route without a limiter in front of it is admitted at once.
 */
import type { Context } from 'hono'
import { CLIENT_IP_HEADER, clientAddress, type ClientAddress } from './client-key'

declare module 'hono' {
  interface ContextVariableMap {
    rateLimitClient: ClientAddress
    rateLimitAdmission: Promise<boolean>
  }
}

const ADMITTED = Promise.resolve(true)

/**
 * The client address of the request (client-key.ts): the one parse of its `CF-Connecting-IP`,
 * at the first call, kept for the rest of the request (the limiter, then the log).
 */
export function clientAddressOf(c: Context): ClientAddress {
  let address = c.get('rateLimitClient')
  if (address === undefined) {
    address = clientAddress(c.req.header(CLIENT_IP_HEADER))
    c.set('rateLimitClient', address)
  }
  return address
}

/** The rate-limit key of the request's client: what the log's client hash hashes. */
export function clientKeyOf(c: Context): string {
  return clientAddressOf(c).key
}

/** Sets the request's admission: true once admitted, false when refused. Never rejects. */
export function setAdmission(c: Context, admission: Promise<boolean>): void {
  c.set('rateLimitAdmission', admission)
}

/**
 * Resolves true once the request is admitted, false when it is not (refused, or no verdict). A
 * route that is not admitted stops, drops what it started and returns `notAdmitted(c)`.
 */
export function admission(c: Context): Promise<boolean> {
  return c.get('rateLimitAdmission') ?? ADMITTED
}

/**
 * What a route returns for a request that was not admitted: a placeholder that is never sent,
 * since the limiter answers such a request itself, after the route (its 429 or 503, in one
 * place: middleware.ts).
 */
export function notAdmitted(c: Context): Response {
  return c.body(null)
}
