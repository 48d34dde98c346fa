import { describe, expect, it } from 'vitest'
import type { Animation } from '../../src/model/animations'
import { findAnimations, MAX_LISTED_ANIMATIONS } from '../../src/model/animation-search'

function animations(count: number): Animation[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `a${i}`,
    name: i === 7 ? 'Open Gate' : `a${i}`,
    durationTicks: 2,
    stepTicks: 1,
    frames: [{ index: 0, tick: 0, poses: [] }],
  }))
}

describe('findAnimations', () => {
  it('lists the first few of a million animations, and counts them all', () => {
    const all = animations(1_000_000)
    const { choices, total } = findAnimations(all, '')
    expect(total).toBe(1_000_000)
    expect(choices).toHaveLength(MAX_LISTED_ANIMATIONS)
    expect(choices[0]).toEqual({ index: 0, label: 'a0 (1 frame)' })
  })

  it('finds by a part of the name, ignoring case, with the index to ask for', () => {
    const all = animations(1_000)
    expect(findAnimations(all, 'gate')).toEqual({
      choices: [{ index: 7, label: 'Open Gate (1 frame)' }],
      total: 1,
    })
    expect(findAnimations(all, 'a99').total).toBe(11)
    expect(findAnimations(all, 'nothing')).toEqual({ choices: [], total: 0 })
  })

  it('labels a long name by its start', () => {
    const [long] = animations(1)
    long!.name = 'n'.repeat(10_000)
    const { choices } = findAnimations([long!], '')
    expect(choices[0]!.label.length).toBeLessThan(60)
  })
})
