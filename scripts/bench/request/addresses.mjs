/**
 * The client addresses of the request section's loads. Each address is its own client key, so
 * its own limiter object: which addresses a case uses decides whether it meets cold objects,
 * warm ones or new ones.
 */

/** The i-th of `count` known addresses (10.x.y.z), cycled. */
export function knownAddress(i, count) {
  const n = i % count
  return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`
}

/** The limited service admits one request per address a day: these 16 get only 429s once primed. */
export function refusedAddress(i) {
  return `192.0.2.${i % 16}`
}

/** Addresses never seen before, one per call (172.16.0.0/12). */
export function newAddresses() {
  let made = 0
  return () => {
    const n = ++made
    return `172.${16 + ((n >> 16) & 15)}.${(n >> 8) & 255}.${n & 255}`
  }
}
