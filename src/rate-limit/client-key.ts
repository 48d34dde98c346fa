/**
 * Who a request counts against. Only `CF-Connecting-IP` is trusted: Cloudflare sets it and a
 * client cannot, while `X-Forwarded-For`, `X-Real-IP` and the like are the client's own words.
 *
 * An IPv4 address is one key. An IPv6 address counts per /64: ISPs hand each subscriber at
 * least a /64, so one household or phone has 2^64 addresses to rotate through, and its /64 is
 * the equivalent of the one NAT'd IPv4 address a household gets.
 *
 * A client's wider prefix (IPv4 /24, IPv6 /48) is what one holder of many addresses usually
 * has: a site gets a /48 (RFC 6177), a hosting customer a block of IPv4 addresses. Misses count
 * for it too (misses.ts), in a Durable Object of its own that only the miss path reaches; each
 * client's windows live in the client's own object.
 *
 * The header is parsed once per request (`clientAddress`, kept on the request's context by
 * request-context.ts), into everything the limiter and the log need of it: the client's key, its
 * network's key and the bytes the exempt networks are matched against.
 */

/** The header Cloudflare sets to the client's address. */
export const CLIENT_IP_HEADER = 'CF-Connecting-IP'
/** The key of requests without the header, which only happens outside Cloudflare (tests, dev). */
const UNKNOWN_CLIENT = 'unknown'

const IPV6_GROUPS = 8
const HEX_GROUP = /^[0-9a-f]{1,4}$/i
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/** A client's address as the limiter counts it: parsed once, in every form it is used in. */
export interface ClientAddress {
  /**
   * The rate-limit key: the dotted IPv4 address (an IPv4-mapped IPv6 address is its IPv4
   * address), or the IPv6 /64 prefix as `2001:db8:0:1::/64`; `unknown` without the header; a
   * value that does not parse is its own key.
   */
  readonly key: string
  /**
   * The key of the client's network: `192.0.2.0/24` for `192.0.2.7`, `2001:db8:1::/48` for
   * `2001:db8:1:2::/64`. A key that is no address is its own network.
   */
  readonly prefix: string
  /** 4 or 6; null for a key that is no address. */
  readonly family: 4 | 6 | null
  /** The address's bytes, 4 for IPv4 and 16 for IPv6, which exempt networks match; or empty. */
  readonly bytes: readonly number[]
}

/** The client address of a `CF-Connecting-IP` value (absent: the `unknown` client). */
export function clientAddress(connectingIp: string | null | undefined): ClientAddress {
  const raw = connectingIp?.trim() ?? ''
  if (raw === '') return notAnAddress(UNKNOWN_CLIENT)
  const bytes = addressBytes(raw)
  if (bytes === null) return notAnAddress(raw)
  if (bytes.length === 4) {
    const [a, b, c, d] = bytes
    return { key: `${a}.${b}.${c}.${d}`, prefix: `${a}.${b}.${c}.0/24`, family: 4, bytes }
  }
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16))
  return {
    key: `${groups.join(':')}::/64`,
    prefix: `${groups.slice(0, 3).join(':')}::/48`,
    family: 6,
    bytes,
  }
}

function notAnAddress(key: string): ClientAddress {
  return { key, prefix: key, family: null, bytes: [] }
}

/**
 * The bytes of an address: 4 for IPv4 (an IPv4-mapped IPv6 address included), 16 for IPv6;
 * null for a value that does not parse.
 */
export function addressBytes(text: string): number[] | null {
  const v4 = parseIpv4(text.trim())
  if (v4 !== null) return v4
  const v6 = parseIpv6(text.trim())
  if (v6 === null) return null
  if (isIpv4Mapped(v6)) return [v6[6]! >> 8, v6[6]! & 0xff, v6[7]! >> 8, v6[7]! & 0xff]
  return v6.flatMap((group) => [group >> 8, group & 0xff])
}

/** The four octets of a dotted-quad IPv4 address, or null. */
function parseIpv4(text: string): number[] | null {
  const match = IPV4.exec(text)
  if (!match) return null
  const octets = match.slice(1).map(Number)
  return octets.every((octet) => octet <= 255) ? octets : null
}

/** The eight 16-bit groups of an IPv6 address (RFC 4291 2.2 text forms), or null. */
function parseIpv6(text: string): number[] | null {
  const halves = text.split('::')
  if (halves.length > 2) return null
  const head = groupsOf(halves[0]!, halves.length === 1)
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : []
  if (head === null || tail === null) return null
  if (halves.length === 1) return head.length === IPV6_GROUPS ? head : null
  // `::` stands for at least one group of zeros.
  const zeros = IPV6_GROUPS - head.length - tail.length
  return zeros >= 1 ? [...head, ...new Array<number>(zeros).fill(0), ...tail] : null
}

/** Groups of one side of `::`; only the last side may end in an embedded dotted IPv4 address. */
function groupsOf(part: string, mayEndInIpv4: boolean): number[] | null {
  if (part === '') return []
  const fields = part.split(':')
  const groups: number[] = []
  for (const [i, field] of fields.entries()) {
    const v4 = mayEndInIpv4 && i === fields.length - 1 ? parseIpv4(field) : null
    if (v4 !== null) groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
    else if (HEX_GROUP.test(field)) groups.push(parseInt(field, 16))
    else return null
  }
  return groups
}

/** `::ffff:a.b.c.d`: an IPv4 client seen through a dual-stack socket. */
function isIpv4Mapped(groups: number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
}
