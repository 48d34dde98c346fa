/**
 * A JSON value as a tree of `<details>`: objects and arrays collapse, leaves show their value.
 * Children are built when a node is first opened, and then PAGE_SIZE at a time behind a "Show
 * more" button, so the DOM holds a few thousand nodes whatever the export: an array of 500,000
 * numbers once built two million nodes at once. Text goes in through `textContent` only, never
 * as HTML.
 */
import { element } from './dom.js'

/** Strings longer than this show their start; the whole string is one click away. */
export const LONG_STRING_CHARS = 160
/** Nodes this deep or shallower start open... */
const OPEN_DEPTH = 1
/** ...while the children they show add up to at most this many. */
const OPENED_CHILDREN = 1_000
/** Children built at a time. */
export const PAGE_SIZE = 200

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** The tree of `value`, its root labelled `label`. */
export function jsonTree(label: string, value: unknown): HTMLElement {
  const root = element('div', 'json-tree')
  root.append(node(label, value as Json, 0, { children: OPENED_CHILDREN }))
  return root
}

/** How many more children branches may show by starting open. */
interface OpenBudget {
  children: number
}

function node(label: string, value: Json, depth: number, budget: OpenBudget): HTMLElement {
  if (value === null || typeof value !== 'object') return leaf(label, value)
  const keys = Array.isArray(value) ? null : Object.keys(value)
  const count = keys === null ? (value as Json[]).length : keys.length
  if (count === 0) return leaf(label, value)
  const childAt = (i: number): [string, Json] =>
    keys === null
      ? [String(i), (value as Json[])[i]!]
      : [keys[i]!, (value as Record<string, Json>)[keys[i]!]!]
  const branch = element('details', 'branch')
  const summary = element('summary')
  summary.append(keyOf(label), element('span', 'meta', sizeOf(count, keys === null)))
  branch.append(summary)
  let list: HTMLElement | null = null
  let shown = 0
  const more = element('button', 'more')
  more.type = 'button'
  const showMore = () => {
    list ??= branch.appendChild(element('ul'))
    const end = Math.min(shown + PAGE_SIZE, count)
    for (; shown < end; shown++) {
      const [key, child] = childAt(shown)
      const item = element('li')
      item.append(node(key, child, depth + 1, budget))
      list.append(item)
    }
    if (shown < count) {
      more.textContent =
        `Show ${Math.min(PAGE_SIZE, count - shown)} more ` +
        `(${shown.toLocaleString('en')} of ${count.toLocaleString('en')} shown)`
      branch.append(more)
    } else {
      more.remove()
    }
  }
  more.addEventListener('click', showMore)
  branch.addEventListener('toggle', () => branch.open && list === null && showMore())
  const firstPage = Math.min(PAGE_SIZE, count)
  if (depth <= OPEN_DEPTH && (depth === 0 || budget.children >= firstPage)) {
    budget.children -= firstPage
    showMore()
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
