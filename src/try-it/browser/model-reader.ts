/**
 * Reads an export's model in a Web Worker (model-worker.ts), so the page keeps answering while a
 * large export is read. Where no worker can start, it reads on the page's thread instead.
 */
import { modelPartsOf, readModel, type ModelRead } from '../model/model-reading.js'

/** The worker's bundle, named with its content hash by scripts/build-assets.mjs. */
declare const MODEL_WORKER_URL: string

/** A reading under way: its result, and a way to stop it. */
export interface PendingRead {
  result: Promise<ModelRead>
  cancel(): void
}

/** Starts reading the model of `content`. */
export function startReading(content: unknown): PendingRead {
  const parts = modelPartsOf(content)
  let worker: Worker
  try {
    worker = new Worker(MODEL_WORKER_URL)
  } catch {
    return { result: Promise.resolve().then(() => readModel(parts)), cancel() {} }
  }
  const result = new Promise<ModelRead>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<ModelRead>) => {
      worker.terminate()
      resolve(event.data)
    })
    // A worker that cannot load or run: read here instead, as without one.
    worker.addEventListener('error', () => {
      worker.terminate()
      try {
        resolve(readModel(parts))
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
  })
  worker.postMessage(parts)
  return { result, cancel: () => worker.terminate() }
}
