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
 */

/** The header Cloudflare sets to the client's address. */
export const CLIENT_IP_HEADER = 'CF-Connecting-IP'
/** The key of requests without the header, which only happens outside Cloudflare (tests, dev). */
export const UNKNOWN_CLIENT = 'unknown'

const IPV6_GROUPS = 8
const HEX_GROUP = /^[0-9a-f]{1,4}$/i
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/**
 * The rate-limit key of a client address: the dotted IPv4 address, or the IPv6 /64 prefix as
 * `2001:db8:0:1::/64`. An IPv4-mapped IPv6 address is its IPv4 address. A value that does not
 * parse is its own key.
 */
export function clientKey(connectingIp: string | null | undefined): string {
  const raw = connectingIp?.trim() ?? ''
  if (raw === '') return UNKNOWN_CLIENT
  const v4 = parseIpv4(raw)
  if (v4 !== null) return v4.join('.')
  const v6 = parseIpv6(raw)
  if (v6 === null) return raw
  if (isIpv4Mapped(v6)) return [v6[6]! >> 8, v6[6]! & 0xff, v6[7]! >> 8, v6[7]! & 0xff].join('.')
  return `${v6
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`
}

const IPV4_KEY = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/
const IPV6_KEY = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/

/**
 * The wider prefix of a client key: `192.0.2.0/24` for `192.0.2.7`, `2001:db8:1::/48` for
 * `2001:db8:1:2::/64`. A key that is neither (`unknown`, a value that did not parse) is its own
 * prefix.
 */
export function prefixKey(clientKey: string): string {
  const v4 = IPV4_KEY.exec(clientKey)
  if (v4 !== null) return `${v4[1]}.0/24`
  const v6 = IPV6_KEY.exec(clientKey)
  if (v6 !== null) return `${v6[1]}::/48`
  return clientKey
}

/**
 * The bytes of an address as the client key reads it: 4 for IPv4 (an IPv4-mapped IPv6 address
 * included), 16 for IPv6; null for a value that does not parse.
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
