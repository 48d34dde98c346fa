/**
 * A client as the log may name it: a keyed hash (HMAC-SHA-256, first 8 bytes in hex) of its
 * rate-limit key (the IPv4 address or the IPv6 /64, as src/rate-limit/ derives it). Without the
 * key nobody can tell which address a hash stands for, not even by hashing all 2^32 IPv4
 * addresses; with it, an operator can tell one flooding client from many, and match a hash
 * to an address someone reports (docs/operations.md shows how). Changing the key unlinks old
 * lines from new ones.
 */
/** Bytes of the MAC kept: 2^64 values, so two clients of one day never share a hash. */
const HASH_BYTES = 8

const encoder = new TextEncoder()
/** The imported key of the last secret seen: one import per isolate. */
let cached: { secret: string; key: Promise<CryptoKey> } | undefined

/** The hash the log shows for the client of rate-limit key `clientKey`. */
export async function clientHash(secret: string, clientKey: string): Promise<string> {
  if (cached?.secret !== secret) cached = { secret, key: importKey(secret) }
  const mac = await crypto.subtle.sign('HMAC', await cached.key, encoder.encode(clientKey))
  return [...new Uint8Array(mac, 0, HASH_BYTES)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
}

function importKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
}
