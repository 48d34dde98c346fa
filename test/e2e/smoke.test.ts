import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from './local-service'

let service: LocalService
beforeAll(async () => {
  service = await startLocalService()
})
afterAll(() => service?.stop())

describe('npm start', () => {
  it('serves the API on loopback', async () => {
    const res = await fetch(`${service.url}/server-api?id=12`)
    expect(res.status).toBe(400)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })
})
