/** The shares the harvest rows print, and the plugin servers' target. */

/** A plugin server beside any attacker is served at least this share of its requests. */
export const PLUGIN_SERVED_TARGET = 0.999

/** A share as the rows print it: one decimal, or two near 100%. */
export const pct = (x) => `${(100 * x).toFixed(x > 0.99 && x < 1 ? 2 : 1)}%`

/** A plugin server's share of requests answered (not refused): its misses count as answered. */
export function served(f) {
  return f.requests === 0 ? 1 : (f.requests - f.refused - f.other) / f.requests
}
