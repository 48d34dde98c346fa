/**
 * The harvest section's attackers: who they are (their networks and addresses), and how their
 * requests are spread. Addresses come from the documentation ranges where they are big enough
 * (2001:db8::/32, 198.51.100.0/24 and its neighbours); the rest are private or arbitrary.
 *
 * An attacker is made of `units` (a /48, a /24, a bot), `unitsTotal` of them in all; one too big
 * to simulate whole is run on evenly spread samples of `sample` units (simulate.mjs says how the
 * figure is extrapolated). Each unit has `streams(u)`: the address lists of its sequential
 * streams (actors.mjs), one client key after another. `networks`: the networks it holds (IPv4
 * /24s, IPv6 /48s), which its target is per (bound.mjs).
 */

/** Sequential streams per IPv6 /48: a modest client with 16 requests in flight. */
const STREAMS_PER_48 = 16
/**
 * The /64s an IPv6 attacker sends from in each /48 it holds, as the IPv4 attackers use 250-254
 * addresses of each /24: a sample, since each /64 is a Durable Object of its own (in Miniflare a
 * SQLite database each). How many /64s a /48's misses come from does not move its bound: its
 * network's object counts every miss of the /48 whatever the /64, and its strangers and guessers
 * are held by the network's penalty and burst room alike. 256 is enough that no /64's own limits
 * bind first: a burst of 3,000 gives each /64 12 requests, under its miss budget (30) and its
 * short window (120), so only the network level can hold it, as with 3,000 /64s.
 */
export const SIXTY_FOURS_PER_48 = 256
/** /64s each stream of a /48 goes through in turn (each /64 its own client budget). */
const SIXTY_FOURS_PER_STREAM = SIXTY_FOURS_PER_48 / STREAMS_PER_48
/** Requests one burst sends at once, from the /64s of one /48 (`SIXTY_FOURS_PER_48`) in turn. */
export const BURST_SIZE = 3_000
/**
 * The samples of /48s a /40 and a /32 run on. No level wider than a /48 counts misses, so each
 * /48 is held by its own budget alone and the marginal yield between samples is what one more
 * /48 adds, whatever their size.
 */
const SAMPLE_48S = [4, 8, 16]

const hex = (n) => n.toString(16)

/** The /64s (as one address each) of stream `s` of the /48 `2001:db8:<u>::/48`. */
function sixtyFours(u, s) {
  return Array.from(
    { length: SIXTY_FOURS_PER_STREAM },
    (_, j) => `2001:db8:${hex(u)}:${hex(s * SIXTY_FOURS_PER_STREAM + j)}::1`,
  )
}

/** An IPv6 attacker holding `count` /48s of 2001:db8::/32. */
function ipv6(label, what, count, sample = null) {
  return {
    label,
    what,
    unitName: '/48',
    unitsTotal: count,
    sample,
    unit: (i, of) => Math.floor((i * count) / of),
    streams: (u) => Array.from({ length: STREAMS_PER_48 }, (_, s) => sixtyFours(u, s)),
    networks: count,
  }
}

/** The /64s (as one address each) an attacker uses of the /48 `2001:db8:<u>::/48`. */
export function sixtyFoursOf(u) {
  return Array.from({ length: SIXTY_FOURS_PER_48 }, (_, v) => `2001:db8:${hex(u)}:${hex(v)}::1`)
}

/** The /64s of the first /48 the /48 attacker's bursts cycle through. */
export function burstAddresses() {
  return sixtyFoursOf(0)
}

export const ATTACKERS = [
  {
    ...ipv6('ipv6-48', 'one IPv6 /48', 1),
    // The /48 also sends bursts and overloads its object (simulate.mjs).
    bursts: true,
    bystander: '2001:db8:0:ffff::10',
  },
  ipv6('ipv6-44', 'an IPv6 /44 (16 /48s)', 16),
  ipv6('ipv6-40', 'an IPv6 /40 (256 /48s)', 256, SAMPLE_48S),
  ipv6('ipv6-32', 'an IPv6 /32 (65,536 /48s)', 65_536, SAMPLE_48S),
  {
    label: 'ipv4-4x24',
    what: '1,000 IPv4 addresses in four /24s',
    unitName: '/24',
    unitsTotal: 4,
    sample: null,
    unit: (i) => i,
    // 250 addresses of each /24, each its own stream.
    streams: (u) => Array.from({ length: 250 }, (_, h) => [`198.51.${100 + u}.${1 + h}`]),
    networks: 4,
    bystander: '198.51.100.251',
  },
  {
    label: 'ipv4-cloud',
    what: '50 IPv4 addresses in 50 /24s of one cloud network (a /16)',
    unitName: '/24',
    unitsTotal: 50,
    sample: null,
    unit: (i) => i,
    streams: (u) => [[`100.70.${u}.10`]],
    networks: 50,
  },
  {
    label: 'botnet',
    what: 'a botnet: 10,000 IPv4 addresses in 10,000 /24s',
    unitName: 'bot',
    unitsTotal: 10_000,
    sample: [50, 100],
    unit: (i, of) => Math.floor((i * 10_000) / of),
    // Each bot in a /16 of its own: bots are spread over the whole address space.
    streams: (b) => [[`${11 + (b % 200)}.${Math.floor(b / 200)}.${b % 7}.7`]],
    networks: 10_000,
  },
]

/**
 * The client key and the wider prefixes of an address (the bench's addresses are written out in
 * full), as docs/rate-limits.md names them: client (IPv4 address, IPv6 /64), prefix (/24, /48),
 * wide prefix (/16, /32).
 */
export function scopesOf(address) {
  if (address.includes(':')) {
    const g = address.split(':')
    return {
      client: g.slice(0, 4).join(':'),
      prefix: g.slice(0, 3).join(':'),
      wide: g.slice(0, 2).join(':'),
    }
  }
  const o = address.split('.')
  return { client: address, prefix: o.slice(0, 3).join('.'), wide: o.slice(0, 2).join('.') }
}
