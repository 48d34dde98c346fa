/**
 * A JSON value described a page at a time, for the tree the page draws of an export's content
 * (json-tree.ts). The value stays in the Web Worker that fetched and parsed it (model-worker.ts);
 * the page gets the outline of the nodes it shows, and asks for the children of a branch when a
 * person opens it, PAGE_SIZE at a time. So what crosses to the page's thread is bounded whatever
 * the export: parsing 19 MB there took 0.7-0.9 s in one task.
 */

/** Strings longer than this show their start; the rest is one click away. */
export const LONG_STRING_CHARS = 160
/** Most characters of a long string shown when it is opened. */
export const SHOWN_STRING_CHARS = 100_000
/** Nodes this deep or shallower start open... */
const OPEN_DEPTH = 1
/** ...while the children they show add up to at most this many. */
const OPENED_CHILDREN = 1_000
/** Children described at a time. */
export const PAGE_SIZE = 200

/** Where a node is: the position of each child on the way from the root, in key order. */
export type OutlinePath = number[]

/** One node of the tree: a scalar (or an empty object or array), or a branch. */
export type OutlineNode =
  | {
      kind: 'leaf'
      key: string
      type: 'null' | 'boolean' | 'number' | 'string' | 'object'
      /** The value as JSON, a long string cut to its start. */
      text: string
      /** A long string's length and where it is, so that its rest can be asked for. */
      long?: { chars: number; path: OutlinePath }
    }
  | {
      kind: 'branch'
      key: string
      array: boolean
      count: number
      path: OutlinePath
      /** The first page of children, when the branch starts open. */
      children?: OutlineNode[]
    }

/** How many more children branches may show by starting open. */
interface OpenBudget {
  children: number
}

/** Keys of the objects already paged, so that a million keys are listed once, not per page. */
const keysSeen = new WeakMap<object, string[]>()

/** The root of `value`'s tree, labelled `label`, with the branches that start open. */
export function outline(label: string, value: unknown): OutlineNode {
  return describe(label, value, [], 0, { children: OPENED_CHILDREN })
}

/** The children of the branch at `path` of `root`, from position `from`, PAGE_SIZE at most. */
export function childrenAt(root: unknown, path: OutlinePath, from: number): OutlineNode[] {
  return page(nodeAt(root, path), path, from, Infinity, { children: 0 })
}

/** A long string at `path` of `root` as JSON, cut to SHOWN_STRING_CHARS characters. */
export function stringAt(root: unknown, path: OutlinePath): string {
  const value = nodeAt(root, path)
  if (typeof value !== 'string') return JSON.stringify(value) ?? ''
  const shown = JSON.stringify(value.slice(0, SHOWN_STRING_CHARS))
  return value.length > SHOWN_STRING_CHARS ? `${shown}…` : shown
}

function describe(
  key: string,
  value: unknown,
  path: OutlinePath,
  depth: number,
  budget: OpenBudget,
): OutlineNode {
  if (value === null || typeof value !== 'object') return leaf(key, value, path)
  const count = Array.isArray(value) ? value.length : keysOf(value).length
  if (count === 0) return leaf(key, value, path)
  const node: OutlineNode = { kind: 'branch', key, array: Array.isArray(value), count, path }
  const firstPage = Math.min(PAGE_SIZE, count)
  if (depth <= OPEN_DEPTH && (depth === 0 || budget.children >= firstPage)) {
    budget.children -= firstPage
    node.children = page(value, path, 0, depth, budget)
  }
  return node
}

function page(
  value: unknown,
  path: OutlinePath,
  from: number,
  depth: number,
  budget: OpenBudget,
): OutlineNode[] {
  if (value === null || typeof value !== 'object') return []
  const array = Array.isArray(value) ? (value as unknown[]) : null
  const keys = array === null ? keysOf(value) : null
  const count = array === null ? keys!.length : array.length
  const children: OutlineNode[] = []
  for (let i = Math.max(0, from); i < Math.min(from + PAGE_SIZE, count); i++) {
    const key = array === null ? keys![i]! : String(i)
    const child = array === null ? (value as Record<string, unknown>)[key] : array[i]
    children.push(describe(key, child, [...path, i], depth + 1, budget))
  }
  return children
}

function leaf(key: string, value: unknown, path: OutlinePath): OutlineNode {
  const type =
    value === null ? 'null' : (typeof value as 'boolean' | 'number' | 'string' | 'object')
  if (typeof value === 'string' && value.length > LONG_STRING_CHARS) {
    const text = JSON.stringify(value.slice(0, LONG_STRING_CHARS)) + '…'
    return { kind: 'leaf', key, type, text, long: { chars: value.length, path } }
  }
  return { kind: 'leaf', key, type, text: JSON.stringify(value) ?? 'null' }
}

function nodeAt(root: unknown, path: OutlinePath): unknown {
  let value = root
  for (const position of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = Array.isArray(value)
      ? (value as unknown[])[position]
      : (value as Record<string, unknown>)[keysOf(value)[position]!]
  }
  return value
}

function keysOf(value: object): string[] {
  let keys = keysSeen.get(value)
  if (keys === undefined) keysSeen.set(value, (keys = Object.keys(value)))
  return keys
}
