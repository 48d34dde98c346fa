import { describe, expect, it } from 'vitest'
import { clientKey, UNKNOWN_CLIENT } from '../../src/rate-limit/testing'

describe('clientKey', () => {
  it('keys an IPv4 address by itself', () => {
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1')
    expect(clientKey(' 192.0.2.1 ')).toBe('192.0.2.1')
  })

  it.each([
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:2:3:4:1.2.3.4', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::', 'fe80:0:0:0::/64'],
    ['1:2:3:4:5:6:7::', '1:2:3:4::/64'],
  ])('keys the IPv6 address %s by its /64, %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key)
  })

  it('keys an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(clientKey('::FFFF:c000:201')).toBe('192.0.2.1')
  })

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
    'not an address',
  ])('keys the unparsable value %j by itself', (raw) => {
    expect(clientKey(raw)).toBe(raw)
  })

  it('keys a request without the header as unknown', () => {
    expect(clientKey(null)).toBe(UNKNOWN_CLIENT)
    expect(clientKey('')).toBe(UNKNOWN_CLIENT)
  })
})
