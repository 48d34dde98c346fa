import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { idSpace, shardName } from '../support/id-layout'
import { rpcRefusal } from '../support/rpc'

/** The methods the allocator keeps to itself: its slot index, its alarm, its quarantine sums. */
const INTERNALS = ['scheduleDrops', 'slotIndex', 'forget', 'secondsUntilFree'] as const

describe('an ID allocator shard over RPC', () => {
  const space = idSpace(10)
  const stub = env.ID_ALLOCATOR.getByName(shardName(space, 0))

  it('answers its protocol through the binding', async () => {
    const expiresAt = Date.now() + 600_000
    const allocation = await stub.allocate({ space, shard: 0, expiresAt, quarantineSeconds: 60 })
    if (!allocation.ok) throw new Error('an empty shard had no free ID')
    expect(await stub.lookup(allocation.id)).toEqual({ state: 'live', expiresAt })
  })

  it.each(INTERNALS)('refuses a call to its internal %s', async (name) => {
    expect(await rpcRefusal(stub, name, space, 0)).toMatch(/does not implement/)
  })

  it('leaves its alarm to the runtime', async () => {
    expect(await rpcRefusal(stub, 'alarm')).toMatch(/reserved method/)
  })

  it('does not hand out its SQL storage or its copies', async () => {
    expect(await rpcRefusal(stub, 'sql')).toMatch(/does not implement/)
    expect(await rpcRefusal(stub, 'copies')).toMatch(/does not implement/)
  })
})
