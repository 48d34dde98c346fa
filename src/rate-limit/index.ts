/**
 * The rate limiter's face (spec 8; docs/rate-limits.md): the middleware that counts a request,
 * the admission a route awaits before it answers, and the client key of a request.
 */
export { rateLimit, type RateLimitOptions } from './middleware'
export { admission, clientKeyOf } from './request-context'
export { missSettings, rateLimitRules } from './rules'
export { PrefixRateLimiter } from './rate-limiter'
