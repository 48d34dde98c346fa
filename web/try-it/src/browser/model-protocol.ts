/**
 * What the page and its Web Worker say to each other. The worker fetches the export through the
 * typed client, parses it and keeps it; the page gets what it shows, bounded whatever the export:
 * the lifetime and rate-limit state, the outline of the content's tree (json-outline.ts), then a
 * view of the model (model-view.ts). It asks for more as a person needs it: a branch's
 * children, a long string, the animations matching a search, the one to play.
 */
import type { RateLimitState } from 'export-retrieval-service/client'
import type { Animation } from '../model/animations.js'
import type { AnimationMatches } from '../model/animation-search.js'
import type { ModelView } from '../model/model-view.js'
import type { PlainError } from './client-errors.js'
import type { OutlineNode, OutlinePath } from './json-outline.js'

/** What the page asks; `fetch` first, then `read` once it is answered. */
export type ModelQuestion =
  | { kind: 'fetch'; exportId: string; tag: string | null; baseUrl: string }
  | { kind: 'read' }
  | { kind: 'children'; path: OutlinePath; from: number }
  | { kind: 'text'; path: OutlinePath }
  | { kind: 'find'; query: string }
  | { kind: 'animation'; index: number }

/** A question, numbered so that its answer can be told apart. */
export type ModelRequest = ModelQuestion & { id: number }

/** The export as fetched, in what the page shows of it first. */
export interface FetchedExport {
  expiresInSeconds: number | null
  rateLimit: RateLimitState | null
  tree: OutlineNode
}

/** The worker's answer to the request of the same id. */
export type ModelAnswer =
  | ({ id: number; kind: 'fetched' } & FetchedExport)
  | { id: number; kind: 'failed'; error: PlainError }
  | { id: number; kind: 'read'; view: ModelView }
  | { id: number; kind: 'children'; children: OutlineNode[] }
  | { id: number; kind: 'text'; text: string }
  | { id: number; kind: 'find'; matches: AnimationMatches }
  | { id: number; kind: 'animation'; animation: Animation | null }
