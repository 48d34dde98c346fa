/**
 * The Web Worker that fetches an export through the typed client, parses it and reads its model
 * off the page's thread, and keeps both: the page asks for the outline of the content's tree a
 * branch at a time, for a bounded view of the model (model-view.ts), then for the animations
 * matching a search and the one to play. The client's errors go back as data (client-errors.ts).
 * Bundled on its own by build.mjs, like the page.
 */
import { getExport } from 'export-retrieval-service/client'
import type { Animation } from '../model/animations.js'
import { findAnimations } from '../model/animation-search.js'
import type { Display } from '../model/displays.js'
import { readModel } from '../model/model-reading.js'
import { animationFor, viewOf } from '../model/model-view.js'
import { plainError } from './client-errors.js'
import { childrenAt, outline, stringAt } from './json-outline.js'
import type { ModelAnswer, ModelRequest } from './model-protocol.js'

let content: unknown = undefined
let animations: Animation[] = []
let drawn: Display[] = []

addEventListener('message', (event: MessageEvent<ModelRequest>) => {
  void answer(event.data).then((answered) => postMessage(answered))
})

async function answer(request: ModelRequest): Promise<ModelAnswer> {
  const { id } = request
  switch (request.kind) {
    case 'fetch':
      try {
        const result = await getExport(request.exportId, {
          baseUrl: request.baseUrl,
          // A person decides whether to try again after a 429.
          maxWaitSeconds: 0,
          // No tag typed: what a plugin that sends none gets (the service's default), not a copy's own.
          tag: request.tag,
        })
        content = result.content
        const { expiresInSeconds, rateLimit } = result
        return {
          id,
          kind: 'fetched',
          expiresInSeconds,
          rateLimit,
          tree: outline('content', content),
        }
      } catch (error) {
        return { id, kind: 'failed', error: plainError(error) }
      }
    case 'read': {
      const read = readModel(content)
      const view = viewOf(read)
      animations = read.animations.animations
      drawn = view.ok ? view.drawn : []
      return { id, kind: 'read', view }
    }
    case 'children':
      return { id, kind: 'children', children: childrenAt(content, request.path, request.from) }
    case 'text':
      return { id, kind: 'text', text: stringAt(content, request.path) }
    case 'find':
      return { id, kind: 'find', matches: findAnimations(animations, request.query) }
    case 'animation': {
      const animation = animations[request.index]
      const answered = animation === undefined ? null : animationFor(animation, drawn)
      return { id, kind: 'animation', animation: answered }
    }
  }
}
