/**
 * Reads an export's model in a Web Worker (model-worker.ts), so the page keeps answering while a
 * large export is read. The worker is started with the page, while the export is still being
 * fetched, so that a small model is drawn as soon as without one; a reading that is cancelled
 * (a new lookup) ends its worker and a fresh one takes its place. Where no worker can start or
 * run, the model is read on the page's thread instead.
 */
import { modelPartsOf, readModel, type ModelRead } from '../model/model-reading.js'

/** The worker's bundle, named with its content hash by scripts/build-assets.mjs. */
declare const MODEL_WORKER_URL: string

/** A reading under way: its result, and a way to stop it. */
export interface PendingRead {
  result: Promise<ModelRead>
  cancel(): void
}

let spare: Worker | null = startWorker()

/** Starts reading the model of `content`. */
export function startReading(content: unknown): PendingRead {
  const parts = modelPartsOf(content)
  const worker = spare ?? startWorker()
  spare = null
  if (worker === null)
    return { result: Promise.resolve().then(() => readModel(parts)), cancel() {} }
  let done = false
  const finish = () => {
    done = true
    // The worker is idle again: keep it for the next lookup.
    spare ??= worker
  }
  const result = new Promise<ModelRead>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<ModelRead>) => {
      finish()
      resolve(event.data)
    }
    // A worker that cannot load or run: read here instead, as without one.
    worker.onerror = () => {
      done = true
      worker.terminate()
      try {
        resolve(readModel(parts))
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    }
  })
  worker.postMessage(parts)
  return {
    result,
    cancel() {
      if (done) return
      done = true
      worker.terminate()
    },
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
