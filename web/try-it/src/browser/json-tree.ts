/**
 * An export's content as a tree of `<details>`: objects and arrays collapse, leaves show their
 * value. The content itself stays in the Web Worker that fetched it; the tree is drawn from its
 * outline (json-outline.ts), and a branch asks the worker for its children when first opened,
 * then PAGE_SIZE at a time behind a "Show more" button. So the DOM holds a few thousand nodes
 * whatever the export, and the page's thread never walks the whole of it. Text goes in through
 * `textContent` only, never as HTML.
 */
import { element } from './dom.js'
import { PAGE_SIZE, type OutlineNode, type OutlinePath } from './json-outline.js'

/** What the tree asks of the worker that holds the content. */
export interface TreeSource {
  children(path: OutlinePath, from: number): Promise<OutlineNode[]>
  text(path: OutlinePath): Promise<string>
}

/** The tree whose root is `root`. */
export function jsonTree(root: OutlineNode, source: TreeSource): HTMLElement {
  const tree = element('div', 'json-tree')
  tree.append(node(root, source))
  return tree
}

function node(outline: OutlineNode, source: TreeSource): HTMLElement {
  if (outline.kind === 'leaf') return leaf(outline, source)
  const { count, path } = outline
  const branch = element('details', 'branch')
  const summary = element('summary')
  summary.append(keyOf(outline.key), element('span', 'meta', sizeOf(count, outline.array)))
  branch.append(summary)
  let list: HTMLElement | null = null
  let shown = 0
  const more = element('button', 'more')
  more.type = 'button'
  const add = (children: OutlineNode[]) => {
    list ??= branch.appendChild(element('ul'))
    for (const child of children) {
      const item = element('li')
      item.append(node(child, source))
      list.append(item)
    }
    shown += children.length
    if (shown < count && children.length > 0) {
      more.disabled = false
      more.textContent =
        `Show ${Math.min(PAGE_SIZE, count - shown)} more ` +
        `(${shown.toLocaleString('en')} of ${count.toLocaleString('en')} shown)`
      branch.append(more)
    } else {
      more.remove()
    }
  }
  let asking = false
  const showMore = () => {
    if (asking) return
    asking = true
    list ??= branch.appendChild(element('ul'))
    more.disabled = true
    more.textContent = 'Loading…'
    source.children(path, shown).then(
      (children) => {
        asking = false
        add(children)
      },
      () => {
        asking = false
        more.remove()
      },
    )
  }
  more.addEventListener('click', showMore)
  branch.addEventListener('toggle', () => branch.open && list === null && showMore())
  if (outline.children !== undefined) {
    add(outline.children)
    branch.open = true
  }
  return branch
}

/** A scalar, or an empty object or array, on one line; a long string opens to show more. */
function leaf(outline: Extract<OutlineNode, { kind: 'leaf' }>, source: TreeSource): HTMLElement {
  const row = element('div', 'leaf')
  row.append(keyOf(outline.key))
  const { long } = outline
  if (long === undefined) {
    row.append(element('span', outline.type, outline.text))
    return row
  }
  const details = element('details', 'long')
  const summary = element('summary')
  summary.append(
    element('span', 'string', outline.text),
    element('span', 'meta', `${long.chars.toLocaleString('en')} characters`),
  )
  const whole = element('pre', 'string', 'Loading…')
  details.append(summary, whole)
  let asked = false
  details.addEventListener('toggle', () => {
    if (!details.open || asked) return
    asked = true
    source.text(long.path).then(
      (text) => (whole.textContent = text),
      () => (whole.textContent = 'The worker holding the content has stopped.'),
    )
  })
  row.append(details)
  return row
}

function keyOf(label: string): HTMLElement {
  return element('span', 'key', label)
}

function sizeOf(count: number, isArray: boolean): string {
  const text = `${count} ${isArray ? 'item' : 'key'}${count === 1 ? '' : 's'}`
  return isArray ? `[${text}]` : `{${text}}`
}
