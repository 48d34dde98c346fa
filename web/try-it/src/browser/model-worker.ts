/**
 * The Web Worker that reads an export's model off the page's thread: the page posts the model
 * parts of the content (model-reading.ts) and gets back what was read. Bundled on its own by
 * scripts/build-assets.mjs, like the page.
 */
import { readModel } from '../model/model-reading.js'

addEventListener('message', (event: MessageEvent<unknown>) => {
  postMessage(readModel(event.data))
})
