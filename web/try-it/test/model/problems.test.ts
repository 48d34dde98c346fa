import { describe, expect, it } from 'vitest'
import { readAnimations } from '../../src/model/animations'
import { readModel } from '../../src/model/model-reading'
import {
  joinProblems,
  MAX_NAME_CHARS,
  MAX_PROBLEM_CHARS,
  MAX_PROBLEMS,
  noProblems,
  noteProblem,
  problemCount,
} from '../../src/model/problems'
import { viewOf } from '../../src/model/model-view'

describe('problems', () => {
  it('keeps the first ones in words, cut to a bounded length, and counts the rest', () => {
    const problems = noProblems()
    for (let i = 0; i < MAX_PROBLEMS + 50; i++) noteProblem(problems, `${i}: ${'x'.repeat(1_000)}`)
    expect(problems.list).toHaveLength(MAX_PROBLEMS)
    expect(problems.more).toBe(50)
    expect(problemCount(problems)).toBe(MAX_PROBLEMS + 50)
    for (const text of problems.list) expect(text.length).toBeLessThanOrEqual(MAX_PROBLEM_CHARS)
    expect(problems.list[0]).toMatch(/^0: x+…$/)
  })

  it('stays bounded when joined', () => {
    const one = noProblems()
    for (let i = 0; i < MAX_PROBLEMS; i++) noteProblem(one, `a${i}`)
    one.more = 7
    const joined = joinProblems(one, one)
    expect(joined.list).toHaveLength(MAX_PROBLEMS)
    expect(problemCount(joined)).toBe(2 * MAX_PROBLEMS + 14)
  })

  it('quotes an animation key of 150,000 characters by its start, in each of 3,500 frames', () => {
    const key = 'k'.repeat(150_000)
    const frames: Record<string, string[]> = {}
    for (let f = 0; f < 3_500; f++) frames[f] = ['data merge entity @e[tag=a] {x:']
    const { problems } = readAnimations({ datapack: { anim_keyframes: { [key]: frames } } })
    expect(problemCount(problems)).toBe(3_500)
    expect(problems.list).toHaveLength(MAX_PROBLEMS)
    expect(problems.list[0]).toMatch(
      new RegExp(`^Animation k{${MAX_NAME_CHARS - 1}}…, frame 0: unreadable SNBT`),
    )
    const size = problems.list.reduce((sum, text) => sum + text.length, 0)
    expect(size).toBeLessThan(MAX_PROBLEMS * MAX_PROBLEM_CHARS)
  })

  it('quotes a long tag by its start', () => {
    const tag = 't'.repeat(10_000)
    const read = readModel({
      passengers: [`{id:"minecraft:block_display",transformation:[1f,0f,0f],Tags:["${tag}"]}`],
    })
    const view = viewOf(read)
    if (!view.ok) throw new Error(view.message)
    expect(view.problems.list[0]!.length).toBeLessThan(200)
    expect(view.problems.list[0]).toContain(`(${'t'.repeat(MAX_NAME_CHARS - 1)}…)`)
  })
})
