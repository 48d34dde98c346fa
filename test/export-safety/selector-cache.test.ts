import { describe, expect, it } from 'vitest'
import { CommandCheck } from '../../src/export-safety/testing'
import { PLACEHOLDER } from '../support/fixtures'
import { fastPath } from '../support/fast-path'
import { frameRefusal } from '../support/frame-refusal'

/**
 * The selector verdicts a check keeps (selector-cache.ts: looked up by a hash of the selector's
 * characters where they stand) never answer for another selector: not for one that shares the
 * hash, and not for a JSON spelling that reads like a kept selector but decodes to another.
 */

/**
 * FNV-1a over UTF-16 units, four at a time as one 32-bit word (the first lowest), then the rest
 * one at a time, within 30 bits, as selector-cache.ts hashes a selector.
 */
function hashOf(text: string): number {
  let hash = 0x811c9dc5
  let at = 0
  for (; at + 4 <= text.length; at += 4) {
    const word = [0, 1, 2, 3].reduce((w, i) => w | (text.charCodeAt(at + i) << (8 * i)), 0)
    hash = Math.imul(hash ^ word, 0x01000193)
  }
  for (; at < text.length; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193)
  return hash & 0x3fffffff
}

const selectorOf = (tag: string) => `@e[type=item_display,tag=${tag}]`
const commandOf = (tag: string) => `data merge entity ${selectorOf(tag)} {}`

/**
 * Two tags of the model's form, of one length, whose selectors share a hash (a birthday
 * search).
 */
function collidingTags(): [string, string] {
  const seen = new Map<number, string>()
  for (let i = 0; ; i++) {
    const tag = `${PLACEHOLDER}_${String(i).padStart(7, '0')}`
    const hash = hashOf(selectorOf(tag))
    const other = seen.get(hash)
    if (other !== undefined) return [other, tag]
    seen.set(hash, tag)
  }
}

describe('the selector verdicts a check keeps', () => {
  const [kept, sharing] = collidingTags()

  it('found two selectors that share a hash', () => {
    expect(kept).not.toBe(sharing)
    expect(kept.length).toBe(sharing.length)
    expect(hashOf(selectorOf(kept))).toBe(hashOf(selectorOf(sharing)))
  })

  it('refuse a selector that shares a kept one’s hash but targets no part of the model', () => {
    const check = new CommandCheck(new Set([kept]), PLACEHOLDER)
    expect(frameRefusal(check, commandOf(kept))).toBeNull()
    expect(fastPath(check, commandOf(kept))).toBe(true)
    expect(fastPath(check, commandOf(sharing))).toBe(false)
    expect(frameRefusal(check, commandOf(sharing))).toBe('selector')
  })

  it('accept both selectors of a hash when both target the model', () => {
    const check = new CommandCheck(new Set([kept, sharing]), PLACEHOLDER)
    for (const tag of [kept, sharing, kept, sharing]) {
      expect(frameRefusal(check, commandOf(tag))).toBeNull()
      expect(fastPath(check, commandOf(tag))).toBe(true)
    }
  })

  it('take the selector kept after the last one found only when it is the same', () => {
    // Frames name parts in one order, so the check compares the next kept selector first.
    const tags = ['a', 'b', 'c'].map((name) => `${PLACEHOLDER}_${name}`)
    const stranger = `${PLACEHOLDER}_x`
    const check = new CommandCheck(new Set(tags), PLACEHOLDER)
    for (const tag of tags) expect(fastPath(check, commandOf(tag))).toBe(true)
    // After `a`, `b` is compared first: a selector of its length but not its characters is
    // checked on its own, whichever kept one follows.
    expect(fastPath(check, commandOf(tags[0]!))).toBe(true)
    expect(fastPath(check, commandOf(stranger))).toBe(false)
    expect(frameRefusal(check, commandOf(stranger))).toBe('selector')
    for (const tag of [tags[2]!, tags[0]!, tags[1]!, tags[1]!]) {
      expect(fastPath(check, commandOf(tag))).toBe(true)
    }
    expect(fastPath(check, commandOf(stranger))).toBe(false)
  })

  it('never take a JSON spelling for the decoded selector it reads like', () => {
    // The part's tag is `t\\0` (two backslashes); `t\0` (one) is no tag of the model, and JSON
    // spells it `t\\0`, character for character the kept selector.
    const own = 't\\\\0'
    const other = 't\\0'
    const check = new CommandCheck(new Set([own]), '')
    expect(frameRefusal(check, commandOf(own))).toBeNull()
    expect(JSON.stringify(commandOf(other))).toContain(selectorOf(own))
    expect(fastPath(check, commandOf(other))).toBe(false)
    expect(frameRefusal(check, commandOf(other))).toBe('selector')
  })
})
