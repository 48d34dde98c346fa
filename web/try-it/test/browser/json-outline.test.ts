import { describe, expect, it } from 'vitest'
import {
  childrenAt,
  LONG_STRING_CHARS,
  outline,
  PAGE_SIZE,
  SHOWN_STRING_CHARS,
  stringAt,
  type OutlineNode,
} from '../../src/browser/json-outline'
import { FIXTURES } from '../fixtures'

/** The number of nodes an outline describes, itself included. */
function size(node: OutlineNode): number {
  if (node.kind === 'leaf' || node.children === undefined) return 1
  return 1 + node.children.reduce((sum, child) => sum + size(child), 0)
}

describe('the outline of a JSON value', () => {
  it('opens the root and its first branches, and describes each node by its key and value', () => {
    const { content } = JSON.parse(FIXTURES['animated-80-displays']!) as { content: object }
    const root = outline('content', content)
    expect(root).toMatchObject({ kind: 'branch', key: 'content', array: false, path: [] })
    if (root.kind !== 'branch') throw new Error('not a branch')
    expect(root.count).toBe(Object.keys(content).length)
    expect(root.children!.map((child) => child.key)).toEqual(Object.keys(content))
    const passengers = root.children!.find((child) => child.key === 'passengers')!
    expect(passengers).toMatchObject({ kind: 'branch', array: true, children: expect.any(Array) })
    const projectId = root.children!.find((child) => child.key === 'project_id')!
    expect(projectId).toMatchObject({ kind: 'leaf', type: 'string' })
    // Deeper branches start closed: their children are asked for when opened.
    const meta = root.children!.find((child) => child.key === 'meta')!
    if (meta.kind !== 'branch') throw new Error('not a branch')
    for (const child of meta.children ?? []) {
      if (child.kind === 'branch') expect(child.children).toBeUndefined()
    }
  })

  it('describes a page of children at a time, by position, however many there are', () => {
    const numbers = Array.from({ length: 500_000 }, (_, i) => i)
    const keys = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, i]))
    const content = { numbers, keys }
    const root = outline('content', content)
    expect(size(root)).toBeLessThan(2 * PAGE_SIZE + 10)
    const page = childrenAt(content, [0], PAGE_SIZE)
    expect(page).toHaveLength(PAGE_SIZE)
    expect(page[0]).toEqual({ kind: 'leaf', key: String(PAGE_SIZE), type: 'number', text: '200' })
    const last = childrenAt(content, [1], 299_900)
    expect(last).toHaveLength(100)
    expect(last.at(-1)).toMatchObject({ key: 'k299999', text: '299999' })
    expect(childrenAt(content, [1], 300_000)).toEqual([])
  })

  it('opens no more than about a thousand children of a wide tree at first', () => {
    const wide = Array.from({ length: 1_000 }, () => Array.from({ length: 1_000 }, () => 0))
    expect(size(outline('content', wide))).toBeLessThan(1_300)
  })

  it('cuts long strings to their start, and gives their rest on request, bounded', () => {
    const long = 'x'.repeat(SHOWN_STRING_CHARS + 5)
    const content = { list: [{ long }], empty: {}, none: null }
    const root = outline('content', content)
    if (root.kind !== 'branch') throw new Error('not a branch')
    expect(root.children![1]).toEqual({ kind: 'leaf', key: 'empty', type: 'object', text: '{}' })
    expect(root.children![2]).toEqual({ kind: 'leaf', key: 'none', type: 'null', text: 'null' })
    const [item] = childrenAt(content, [0, 0], 0)
    expect(item).toMatchObject({ kind: 'leaf', key: 'long', long: { chars: long.length } })
    if (item?.kind !== 'leaf') throw new Error('not a leaf')
    expect(item.text).toBe(JSON.stringify('x'.repeat(LONG_STRING_CHARS)) + '…')
    const rest = stringAt(content, item.long!.path)
    expect(rest).toBe(JSON.stringify('x'.repeat(SHOWN_STRING_CHARS)) + '…')
  })

  it('keeps a key like __proto__ a key', () => {
    const content = JSON.parse('{"__proto__": {"a": 1}}') as object
    const root = outline('content', content)
    if (root.kind !== 'branch') throw new Error('not a branch')
    expect(root.children![0]).toMatchObject({ key: '__proto__', count: 1 })
    expect(childrenAt(content, [0], 0)).toEqual([
      { kind: 'leaf', key: 'a', type: 'number', text: '1' },
    ])
  })
})
