/**
 * A JSON value as a tree of `<details>`: objects and arrays collapse, leaves show their value.
 * Children are built when a node is first opened, so a 20 MB export costs nothing until
 * someone looks inside. Text goes in through `textContent` only, never as HTML.
 */
import { element } from './dom.js'

/** Strings longer than this show their start; the whole string is one click away. */
export const LONG_STRING_CHARS = 160
/** Nodes this deep or shallower start open. */
const OPEN_DEPTH = 1

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** The tree of `value`, its root labelled `label`. */
export function jsonTree(label: string, value: unknown): HTMLElement {
  const root = element('div', 'json-tree')
  root.append(node(label, value as Json, 0))
  return root
}

function node(label: string, value: Json, depth: number): HTMLElement {
  if (value === null || typeof value !== 'object') return leaf(label, value)
  const entries: [string, Json][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value)
  if (entries.length === 0) return leaf(label, value)
  const branch = element('details', 'branch')
  const summary = element('summary')
  summary.append(
    keyOf(label),
    element('span', 'meta', sizeOf(entries.length, Array.isArray(value))),
  )
  branch.append(summary)
  let built = false
  const build = () => {
    if (built) return
    built = true
    const list = element('ul')
    for (const [key, child] of entries) {
      const item = element('li')
      item.append(node(key, child, depth + 1))
      list.append(item)
    }
    branch.append(list)
  }
  branch.addEventListener('toggle', () => branch.open && build())
  if (depth <= OPEN_DEPTH) {
    build()
    branch.open = true
  }
  return branch
}

/** A scalar, or an empty object or array, on one line. */
function leaf(label: string, value: Json): HTMLElement {
  const row = element('div', 'leaf')
  row.append(keyOf(label))
  if (typeof value === 'string' && value.length > LONG_STRING_CHARS) {
    const long = element('details', 'long')
    const summary = element('summary')
    summary.append(
      element('span', 'string', JSON.stringify(value.slice(0, LONG_STRING_CHARS)) + '…'),
      element('span', 'meta', `${value.length.toLocaleString('en')} characters`),
    )
    long.append(summary, element('pre', 'string', JSON.stringify(value)))
    row.append(long)
  } else {
    row.append(element('span', value === null ? 'null' : typeof value, JSON.stringify(value)))
  }
  return row
}

function keyOf(label: string): HTMLElement {
  return element('span', 'key', label)
}

function sizeOf(count: number, isArray: boolean): string {
  const text = `${count} ${isArray ? 'item' : 'key'}${count === 1 ? '' : 's'}`
  return isArray ? `[${text}]` : `{${text}}`
}
