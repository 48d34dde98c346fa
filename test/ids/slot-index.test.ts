import { describe, expect, it } from 'vitest'
import { BUCKET_SLOTS, SlotIndex } from '../../src/ids/testing'

describe('SlotIndex', () => {
  it('finds the free slots in order, across bucket boundaries', () => {
    const index = new SlotIndex(3 * BUCKET_SLOTS + 10)
    for (let slot = 0; slot < index.size; slot++) if (slot % 100 !== 7) index.take(slot)
    const free = Array.from({ length: index.freeCount }, (_, rank) => index.nthFree(rank))
    expect(free).toEqual([7, 107, 207, 307, 407, 507, 607, 707])
  })

  it('counts each slot once, however often it is taken or released', () => {
    const index = new SlotIndex(10)
    index.take(3)
    index.take(3)
    index.release(4)
    expect(index.freeCount).toBe(9)
    index.release(3)
    index.release(3)
    expect(index.freeCount).toBe(10)
  })

  it('ignores slots outside the shard', () => {
    const index = new SlotIndex(10)
    index.take(10)
    index.take(-1)
    expect(index.freeCount).toBe(10)
  })

  it('refuses a rank with no free slot', () => {
    const index = new SlotIndex(2)
    index.take(0)
    expect(index.nthFree(0)).toBe(1)
    expect(() => index.nthFree(1)).toThrow(RangeError)
  })
})
