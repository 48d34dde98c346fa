/**
 * Reads an export's model in a Web Worker (model-worker.ts), so the page keeps answering while a
 * large export is read, and keeps it there while the model is shown: the page asks it for
 * animations as a person needs them. A worker is started with the page, while the export is
 * still being fetched, so that a small model is drawn as soon as without one; a model that is
 * put away (a new lookup) ends its worker.
 *
 * There is no reading on the page's thread: a browser that cannot run the worker, or a worker
 * that fails (out of memory on a huge export), gets a preview refused in words, never a page
 * that quietly freezes while it reads.
 */
import type { Animation } from '../model/animations.js'
import type { AnimationMatches } from '../model/animation-search.js'
import { modelPartsOf } from '../model/model-reading.js'
import type { ModelView } from '../model/model-view.js'
import { sliceModelParts } from './model-handoff.js'
import type { ModelAnswer, ModelQuestion } from './model-protocol.js'
import { taskPacer } from './next-task.js'

/** The worker's bundle, named with its content hash by build.mjs. */
declare const MODEL_WORKER_URL: string

/** A model being read, then kept, in its worker. */
export interface ModelSource {
  view: Promise<ModelView>
  /** The animations whose name contains `query`: the first few, and how many in all. */
  find(query: string): Promise<AnimationMatches>
  /** The animation at `index`, with the poses of the drawn displays. */
  animation(index: number): Promise<Animation | null>
  /** Ends the worker; pending answers never come. */
  close(): void
}

/** Why a preview is refused when no worker can read the model. */
export const NO_WORKER =
  'this browser cannot read the model in the background (no Web Worker), and reading it on ' +
  "the page's thread could freeze the page"

let spare: Worker | null = startWorker()

/** Starts reading the model of `content`. */
export function startReading(content: unknown): ModelSource {
  const worker = spare ?? startWorker()
  spare = startWorker()
  if (worker === null) {
    const refused = Promise.reject(new Error(NO_WORKER))
    refused.catch(() => {})
    return { view: refused, find: () => refused, animation: () => refused, close() {} }
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
      `the background reading of the model failed (${event.message || 'the worker stopped'})`,
    )
    for (const asker of waiting.values()) asker.reject(reason)
    waiting.clear()
    close()
  }
  const close = () => {
    closed = true
    worker.terminate()
  }
  const handOff = async (): Promise<ModelView> => {
    const parts = modelPartsOf(content) as {
      passengers: unknown
      datapack: { anim_keyframes: unknown }
      meta: { animations: unknown }
    }
    const slices = sliceModelParts({
      passengers: parts.passengers,
      anim_keyframes: parts.datapack.anim_keyframes,
      animations: parts.meta.animations,
    })
    const pacer = taskPacer()
    for (const slice of slices) {
      await pacer.pause()
      if (closed) break
      worker.postMessage({ ...slice, id: -1 })
    }
    const answer = await ask({ kind: 'read' })
    return (answer as Extract<ModelAnswer, { kind: 'read' }>).view
  }
  return {
    view: handOff(),
    find: (query) =>
      ask({ kind: 'find', query }).then(
        (answer) => (answer as Extract<ModelAnswer, { kind: 'find' }>).matches,
      ),
    animation: (index) =>
      ask({ kind: 'animation', index }).then(
        (answer) => (answer as Extract<ModelAnswer, { kind: 'animation' }>).animation,
      ),
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
  // A spare that fails to load before it is used is dropped, not handed a reading.
  worker.onerror = () => {
    if (spare === worker) spare = null
    worker.terminate()
  }
  return worker
}
