/**
 * Looks an export up in a Web Worker (model-worker.ts), which fetches it through the typed client,
 * parses it, reads its model and keeps them while the page shows them: the page's thread never
 * handles the whole body, which for a 19 MB export took it 0.7-0.9 s in one task to parse. The
 * page asks the worker for what a person opens: a branch of the tree, an animation. A worker is
 * started with the page, so that a lookup does not wait for one to load; a lookup that is put
 * away (a new one) ends its worker.
 *
 * There is no fetching on the page's thread: a browser that cannot run the worker, or a worker
 * that fails (out of memory on a huge export), gets the lookup refused in words, never a page
 * that quietly freezes while it parses.
 */
import type { Animation } from '../model/animations.js'
import type { AnimationMatches } from '../model/animation-search.js'
import type { ModelView } from '../model/model-view.js'
import { clientError } from './client-errors.js'
import type { OutlineNode, OutlinePath } from './json-outline.js'
import type { TreeSource } from './json-tree.js'
import type { FetchedExport, ModelAnswer, ModelQuestion } from './model-protocol.js'

/** The worker's bundle, named with its content hash by build.mjs. */
declare const MODEL_WORKER_URL: string

/** An export being looked up, then kept, in its worker. */
export interface ModelSource extends TreeSource {
  /** What the page shows first; rejects with the client's error (or the worker's failure). */
  fetched: Promise<FetchedExport>
  /** Reads the model of the fetched export. */
  view(): Promise<ModelView>
  /** The animations whose name contains `query`: the first few, and how many in all. */
  find(query: string): Promise<AnimationMatches>
  /** The animation at `index`, with the poses of the drawn displays. */
  animation(index: number): Promise<Animation | null>
  /** Ends the worker; pending answers never come. */
  close(): void
}

/** What to look up. */
export interface Lookup {
  id: string
  tag: string
  baseUrl: string
}

/** A lookup refused because no worker can run it. */
export class NoWorkerError extends Error {
  constructor() {
    super(
      'This browser cannot fetch and read the export in the background (no Web Worker), and ' +
        "doing it on the page's thread could freeze the page, so nothing was fetched.",
    )
  }
}

let spare: Worker | null = startWorker()

/** Starts looking up `lookup`. */
export function startLookup(lookup: Lookup): ModelSource {
  const worker = spare ?? startWorker()
  spare = startWorker()
  if (worker === null) {
    const refused = Promise.reject(new NoWorkerError())
    refused.catch(() => {})
    const refuse = () => refused
    return {
      fetched: refused,
      view: refuse,
      children: refuse,
      text: refuse,
      find: refuse,
      animation: refuse,
      close() {},
    }
  }
  const waiting = new Map<number, { resolve(answer: ModelAnswer): void; reject(e: Error): void }>()
  let next = 0
  let closed = false
  const ask = (question: ModelQuestion): Promise<ModelAnswer> => {
    const id = next++
    return new Promise((resolve, reject) => {
      if (closed) return
      waiting.set(id, { resolve, reject })
      worker.postMessage({ ...question, id })
    })
  }
  worker.onmessage = (event: MessageEvent<ModelAnswer>) => {
    const asker = waiting.get(event.data.id)
    waiting.delete(event.data.id)
    asker?.resolve(event.data)
  }
  worker.onerror = (event) => {
    event.preventDefault()
    const reason = new Error(
      `the background reading of the export failed (${event.message || 'the worker stopped'})`,
    )
    for (const asker of waiting.values()) asker.reject(reason)
    waiting.clear()
    close()
  }
  const close = () => {
    closed = true
    worker.terminate()
  }
  const answerOf = async <K extends ModelAnswer['kind']>(
    question: ModelQuestion,
    kind: K,
  ): Promise<Extract<ModelAnswer, { kind: K }>> => {
    const answer = await ask(question)
    if (answer.kind === 'failed') throw clientError(answer.error)
    if (answer.kind !== kind) throw new Error(`the worker answered ${answer.kind}, not ${kind}`)
    return answer as Extract<ModelAnswer, { kind: K }>
  }
  const { id, tag, baseUrl } = lookup
  const fetched = answerOf(
    { kind: 'fetch', exportId: id, tag: tag === '' ? null : tag, baseUrl },
    'fetched',
  )
  fetched.catch(() => {})
  return {
    fetched,
    view: () => answerOf({ kind: 'read' }, 'read').then((answer) => answer.view),
    children: (path: OutlinePath, from: number): Promise<OutlineNode[]> =>
      answerOf({ kind: 'children', path, from }, 'children').then((answer) => answer.children),
    text: (path) => answerOf({ kind: 'text', path }, 'text').then((answer) => answer.text),
    find: (query) => answerOf({ kind: 'find', query }, 'find').then((answer) => answer.matches),
    animation: (index) =>
      answerOf({ kind: 'animation', index }, 'animation').then((answer) => answer.animation),
    close,
  }
}

function startWorker(): Worker | null {
  let worker: Worker
  try {
    worker = new Worker(MODEL_WORKER_URL)
  } catch {
    return null
  }
  // A spare that fails to load before it is used is dropped, not handed a lookup.
  worker.onerror = () => {
    if (spare === worker) spare = null
    worker.terminate()
  }
  return worker
}
