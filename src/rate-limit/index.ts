/**
 * The rate limiter's face (docs/api.md#rate-limits, docs/rate-limits.md): the middleware that
 * counts a request, the admission a route awaits before it answers (and what it returns when not
 * admitted), the client key of a request, and the settings (the exempt networks are checked at
 * startup).
 */
export { rateLimit, type RateLimitOptions } from './middleware'
export { admission, clientKeyOf, notAdmitted } from './request-context'
export { exemptNetworks, missSettings, rateLimitRules } from './rules'
export { PrefixRateLimiter } from './rate-limiter'
