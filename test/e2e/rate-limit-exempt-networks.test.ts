/**
 * `RATE_LIMIT_EXEMPT_NETWORKS` (docs/rate-limits.md#exempt-networks), started as `npm start`
 * starts it: a list that does not parse stops the service at startup, naming the setting, like
 * `DEFAULT_TAG`; a good one starts it.
 */
import { describe, expect, it } from 'vitest'
import { startLocalService } from './local-service'

describe('RATE_LIMIT_EXEMPT_NETWORKS', () => {
  it('stops the service at startup when an entry is not a network, and says which', async () => {
    await expect(
      startLocalService({ RATE_LIMIT_EXEMPT_NETWORKS: '192.0.2.0/24, 198.51.100.7/24' }),
    ).rejects.toThrow(
      'RATE_LIMIT_EXEMPT_NETWORKS: "198.51.100.7/24" has address bits set past its /24; write the network\'s first address',
    )
  })

  it('starts with a list of networks and serves', async () => {
    const service = await startLocalService({
      RATE_LIMIT_EXEMPT_NETWORKS: '192.0.2.0/24, 2001:db8::/32',
    })
    try {
      const res = await fetch(`${service.url}/server-api?id=999999`, {
        headers: { 'CF-Connecting-IP': '192.0.2.7' },
      })
      expect(res.status).toBe(404)
    } finally {
      await service.stop()
    }
  })
})
