/**
 * The one parse of a request's `CF-Connecting-IP` (src/rate-limit/client-key.ts): the client's
 * key, its network's key, and the bytes exempt networks are matched against, for every text form
 * of an address a header can hold. Through HTTP: rate-limit.test.ts (who counts against whom) and
 * rate-limit-neighbours-http.test.ts (exempt networks).
 */
import { describe, expect, it } from 'vitest'
import { exemptNetworks } from '../../src/rate-limit'
import { clientAddress } from '../../src/rate-limit/testing'
import addresses from '../vectors/rate-limit/client-addresses.json'

describe('the client address', () => {
  it.each(addresses.ipv4)(
    'keys the IPv4 address %j by itself, %s, in %s',
    (header, key, prefix) => {
      expect(clientAddress(header)).toEqual({
        key,
        prefix,
        family: 4,
        bytes: key.split('.').map(Number),
      })
    },
  )

  it.each(addresses.ipv6)(
    'keys the IPv6 address %s by its /64, %s, in %s',
    (header, key, prefix) => {
      const address = clientAddress(header)
      expect(address).toMatchObject({ key, prefix, family: 6 })
      expect(address.bytes).toHaveLength(16)
    },
  )

  it('reads the 16 bytes of an IPv6 address, whatever its spelling', () => {
    const bytes = [0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1]
    expect(clientAddress('2001:db8:1:2::1').bytes).toEqual(bytes)
    expect(clientAddress('2001:0DB8:0001:0002:0:0:0:1').bytes).toEqual(bytes)
    expect(clientAddress('2001:db8:1:2:0:0:0.0.0.1').bytes).toEqual(bytes)
  })

  it.each(['::ffff:192.0.2.1', '::FFFF:c000:201', '0:0:0:0:0:ffff:192.0.2.1'])(
    'keys the IPv4-mapped IPv6 address %s as its IPv4 address',
    (header) => {
      expect(clientAddress(header)).toEqual({
        key: '192.0.2.1',
        prefix: '192.0.2.0/24',
        family: 4,
        bytes: [192, 0, 2, 1],
      })
    },
  )

  it.each([
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2::3',
    '1:2:3:4:5:6:7:8::',
    ':1:2:3:4:5:6:7',
    '12345::',
    'fe80::1%eth0',
    '1.2.3.4:5::',
    '256.1.1.1',
    '192.0.2',
    '192.0.2.1/24',
    'not an address',
  ])('keys the unparsable value %j by itself, its own network, and no address', (header) => {
    expect(clientAddress(header)).toEqual({
      key: header,
      prefix: header,
      family: null,
      bytes: [],
    })
  })

  it.each([null, undefined, '', '   '])(
    'keys a request without the header (%j) as unknown',
    (header) => {
      expect(clientAddress(header)).toEqual({
        key: 'unknown',
        prefix: 'unknown',
        family: null,
        bytes: [],
      })
    },
  )
})

describe('the exempt networks setting', () => {
  const read = (raw: string) => exemptNetworks({ RATE_LIMIT_EXEMPT_NETWORKS: raw })

  it.each([
    ['', []],
    ['192.0.2.0/24', ['192.0.2.7']],
    ['192.0.2.0/24,2001:db8::/32', ['192.0.2.7', '2001:db8:ffff::1', '::ffff:192.0.2.9']],
    ['  10.0.0.0/8   172.16.0.0/12 ', ['10.1.2.3', '172.31.0.1']],
    ['0.0.0.0/0', ['203.0.113.1']],
  ])('reads %j', (raw, inside) => {
    const networks = read(raw)
    for (const ip of inside) expect(networks.contains(clientAddress(ip))).toBe(true)
    expect(networks.contains(clientAddress('198.51.100.1'))).toBe(raw.includes('/0'))
    expect(networks.contains(clientAddress(null))).toBe(false)
    expect(networks.contains(clientAddress('fe80::1%eth0'))).toBe(false)
  })

  it.each([
    ['192.0.2.0', /address\/length/],
    ['192.0.2.0/33', /address\/length/],
    ['192.0.2.7/24', /bits set past its \/24/],
    ['2001:db8::1/32', /bits set past its \/32/],
    ['example.com/24', /address\/length/],
    ['192.0.2.0/24;10.0.0.0/8', /address\/length/],
  ])('refuses %j, naming the setting', (raw, message) => {
    expect(() => read(raw)).toThrow(/^RATE_LIMIT_EXEMPT_NETWORKS/)
    expect(() => read(raw)).toThrow(message)
  })
})
