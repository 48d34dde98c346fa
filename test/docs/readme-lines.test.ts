/**
 * The README's line rule: outside code blocks, no line runs over 120 characters, so it reads in a
 * terminal and in a diff as well as on a web page. Tables count: a narrow table is a readable one.
 */
import { describe, expect, it } from 'vitest'
import readme from '../../README.md?raw'

const MAX_LINE_LENGTH = 120

describe('the README', () => {
  it(`keeps every line outside code blocks within ${MAX_LINE_LENGTH} characters`, () => {
    let inCode = false
    const long: string[] = []
    for (const line of readme.split('\n')) {
      if (line.startsWith('```')) inCode = !inCode
      else if (!inCode && line.length > MAX_LINE_LENGTH) long.push(line)
    }
    expect(long).toEqual([])
  })
})
