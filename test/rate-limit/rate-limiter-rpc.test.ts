import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { missSettings, rateLimitRules } from '../../src/rate-limit'
import { rpcRefusal } from '../support/rpc'

/** The methods the limiter keeps to itself: its memory, its write-behind, its alarm. */
const INTERNALS = ['live', 'lapsedClean', 'keptInMemory', 'change', 'sweep', 'write', 'setAlarm']

describe('a rate-limit object over RPC', () => {
  const policy = { rules: rateLimitRules(env), misses: missSettings(env) }

  it("answers its protocol through the binding, as a client's object and as a network's", async () => {
    const client = env.RATE_LIMITER.getByName('10.71.0.1')
    expect(await client.hit('10.71.0.1', policy)).toMatchObject({ admitted: true })
    const network = env.RATE_LIMITER.getByName('10.71.0.0/24')
    expect(await network.networkMiss(policy)).toMatchObject({ misses: 1 })
  })

  it.each(INTERNALS)('refuses a call to its internal %s', async (name) => {
    const stub = env.RATE_LIMITER.getByName('10.71.0.2')
    expect(await rpcRefusal(stub, name, 'client:10.71.0.2', Date.now())).toMatch(
      /does not implement/,
    )
  })

  it('leaves its alarm to the runtime', async () => {
    const stub = env.RATE_LIMITER.getByName('10.71.0.3')
    expect(await rpcRefusal(stub, 'alarm')).toMatch(/reserved method/)
  })

  it('does not hand out its records', async () => {
    const stub = env.RATE_LIMITER.getByName('10.71.0.3')
    expect(await rpcRefusal(stub, 'records')).toMatch(/does not implement/)
  })
})
