/**
 * The Web Worker that reads an export's model off the page's thread and keeps it: the page posts
 * the model parts of the content (model-reading.ts) in slices (model-handoff.ts), then asks to
 * read them and gets back a bounded view of the model (model-view.ts); then it
 * asks for the animations matching a search, and for the one to play. Bundled on its own by
 * build.mjs, like the page.
 */
import type { Animation } from '../model/animations.js'
import { findAnimations } from '../model/animation-search.js'
import type { Display } from '../model/displays.js'
import { readModel } from '../model/model-reading.js'
import { animationFor, viewOf } from '../model/model-view.js'
import { addSlice, contentOf, emptyParts } from './model-assembly.js'
import type { ModelAnswer, ModelRequest } from './model-protocol.js'

let parts = emptyParts()
let animations: Animation[] = []
let drawn: Display[] = []

addEventListener('message', (event: MessageEvent<ModelRequest>) => {
  const answered = answer(event.data)
  if (answered !== null) postMessage(answered)
})

function answer(request: ModelRequest): ModelAnswer | null {
  switch (request.kind) {
    case 'value':
    case 'items':
    case 'entries':
      addSlice(parts, request)
      return null
    case 'read': {
      const read = readModel(contentOf(parts))
      parts = emptyParts()
      const view = viewOf(read)
      animations = read.animations.animations
      drawn = view.ok ? view.drawn : []
      return { id: request.id, kind: 'read', view }
    }
    case 'find':
      return { id: request.id, kind: 'find', matches: findAnimations(animations, request.query) }
    case 'animation': {
      const animation = animations[request.index]
      return {
        id: request.id,
        kind: 'animation',
        animation: animation === undefined ? null : animationFor(animation, drawn),
      }
    }
  }
}
