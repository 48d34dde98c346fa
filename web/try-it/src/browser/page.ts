/**
 * The try-it page: an ID and a tag in, the export out as a 3D preview of its model and a tree,
 * with its remaining lifetime and the caller's rate-limit state. It goes through the typed
 * client like any other caller, from its Web Worker (model-reader.ts), and never waits on a 429:
 * a person decides whether to try again. The address carries the lookup (`/?id=241235&tag=gate_1`), so a link to the page
 * fetches the same export when opened.
 */
import {
  ExportHttpError,
  InvalidIdError,
  RateLimitedError,
  type RateLimitState,
} from 'export-retrieval-service/client'
import { jsonTree } from './json-tree.js'
import { NoWorkerError, startLookup, type ModelSource } from './model-reader.js'
import type { FetchedExport } from './model-protocol.js'
import { clearModel, showModel } from './model-section.js'

const form = byId<HTMLFormElement>('lookup')
const idInput = byId<HTMLInputElement>('id')
const tagInput = byId<HTMLInputElement>('tag')
const button = byId<HTMLButtonElement>('fetch')
const status = byId<HTMLElement>('status')
const facts = byId<HTMLElement>('facts')
const expires = byId<HTMLElement>('expires')
const limits = byId<HTMLElement>('rate-limit')
const tree = byId<HTMLElement>('tree')
const model = byId<HTMLElement>('model')

let countdown: ReturnType<typeof setInterval> | undefined
let inFlight: ModelSource | undefined

form.addEventListener('submit', (event) => {
  event.preventDefault()
  void lookUp(idInput.value.trim(), tagInput.value)
})

const linked = new URLSearchParams(location.search)
idInput.value = linked.get('id') ?? ''
tagInput.value = linked.get('tag') ?? ''
if (idInput.value !== '') void lookUp(idInput.value.trim(), tagInput.value)

/** Puts the lookup in the address, so the page's link fetches it again. */
function rememberInAddress(id: string, tag: string): void {
  const query = new URLSearchParams({ id })
  if (tag !== '') query.set('tag', tag)
  history.replaceState(null, '', `${location.pathname}?${query.toString()}`)
}

async function lookUp(id: string, tag: string): Promise<void> {
  // The previous lookup's worker ends, and with it its fetch and its model.
  inFlight?.close()
  const source = (inFlight = startLookup({ id, tag, baseUrl: location.origin }))
  clearInterval(countdown)
  tree.replaceChildren()
  clearModel(model)
  facts.hidden = true
  show('Fetching…', 'busy')
  button.disabled = true
  try {
    const fetched = await source.fetched
    if (inFlight !== source) return
    rememberInAddress(id, tag)
    showExport(id, fetched, source)
  } catch (error) {
    if (inFlight !== source) return
    // The client refuses a malformed ID before sending it; any other lookup is worth a link.
    if (!(error instanceof InvalidIdError)) rememberInAddress(id, tag)
    showError(error)
  } finally {
    if (inFlight === source) button.disabled = false
  }
}

/**
 * Shows the export: its facts and the first nodes of its tree at once (the worker sent only what
 * is shown), then its model once the worker has read it.
 */
function showExport(id: string, fetched: FetchedExport, source: ModelSource): void {
  show(`Export ${id}`, 'ok')
  showFacts(fetched.expiresInSeconds, fetched.rateLimit)
  tree.replaceChildren(jsonTree(fetched.tree, source))
  showModel(model, source)
}

function showError(error: unknown): void {
  if (error instanceof InvalidIdError) {
    show('A publication ID is six digits, like 123456. Nothing was sent.', 'error')
  } else if (error instanceof RateLimitedError) {
    const wait =
      error.retryAfterSeconds === null ? '' : ` Try again in ${error.retryAfterSeconds} s.`
    show(`Too many requests from this address.${wait}`, 'error')
    showFacts(null, error.rateLimit)
  } else if (error instanceof ExportHttpError) {
    const code = error.code === null ? '' : ` ${error.code}`
    show(`HTTP ${error.status}${code}: ${error.message.replace(/^HTTP \d+: /, '')}`, 'error')
    showFacts(null, error.rateLimit)
  } else if (error instanceof NoWorkerError) {
    show(error.message, 'error')
  } else {
    show(`The request failed: ${error instanceof Error ? error.message : String(error)}`, 'error')
  }
}

function showFacts(expiresInSeconds: number | null, rateLimit: RateLimitState | null): void {
  facts.hidden = false
  expires.textContent = expiresInSeconds === null ? '—' : `${expiresInSeconds} s`
  if (expiresInSeconds !== null) {
    const end = Date.now() + expiresInSeconds * 1000
    countdown = setInterval(() => {
      const left = Math.max(0, Math.round((end - Date.now()) / 1000))
      expires.textContent = left === 0 ? 'expired' : `${left} s`
      if (left === 0) clearInterval(countdown)
    }, 1000)
  }
  limits.replaceChildren(...describeLimits(rateLimit))
}

function describeLimits(rateLimit: RateLimitState | null): HTMLElement[] {
  if (rateLimit === null) return [line('not reported')]
  if (rateLimit.windows.length === 0) {
    return [
      line(
        `${rateLimit.remaining} of ${rateLimit.limit} left, resets in ${rateLimit.resetSeconds} s`,
      ),
    ]
  }
  return rateLimit.windows.map((w) => {
    const of = w.limit === null ? '' : ` of ${w.limit}`
    const per = w.periodSeconds === null ? '' : ` per ${w.periodSeconds} s`
    return line(`${w.name}: ${w.remaining}${of}${per} left, resets in ${w.resetSeconds} s`)
  })
}

function line(text: string): HTMLElement {
  const item = document.createElement('div')
  item.textContent = text
  return item
}

function show(text: string, kind: 'busy' | 'ok' | 'error'): void {
  status.textContent = text
  status.className = kind
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`the page has no #${id}`)
  return found as T
}
