import { describe, expect, it } from 'vitest'
import { sharedService } from './shared-service'

const service = sharedService()

describe('npm start', () => {
  it('serves the API on loopback', async () => {
    const res = await fetch(`${service.url}/server-api?id=12`)
    expect(res.status).toBe(400)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })
})
