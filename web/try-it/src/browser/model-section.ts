/**
 * The model part of the page: how many displays the export holds, its 3D preview and the
 * animation picker. When the model cannot be drawn (no passengers, unreadable SNBT, no WebGL, a
 * worker that failed reading it) it says so in words; the JSON tree below stays either way, and there is
 * never a blank canvas.
 */
import { MAX_DRAWN_DISPLAYS } from '../model/placement.js'
import { problemCount, type Problems } from '../model/problems.js'
import type { ModelView } from '../model/model-view.js'
import { animationPlayer } from './animation-player.js'
import { element } from './dom.js'
import type { ModelSource } from './model-reader.js'
import { createPreview, type Preview } from './model-preview.js'

/** Problems listed at most; the rest are counted. */
const SHOWN_PROBLEMS = 5

let current: Preview | null = null
let source: ModelSource | null = null

/**
 * Shows the model of the export `reading` holds in `section`, replacing what was there: first
 * that it is being read (in its worker, while the page stays usable), then the model.
 */
export function showModel(section: HTMLElement, reading: ModelSource): void {
  clearModel(section)
  section.hidden = false
  const progress = element('p', 'model-reading', 'Reading the model… ')
  progress.dataset['testid'] = 'model-reading'
  progress.append(element('progress'))
  section.append(progress)
  source = reading
  reading.view().then(
    (view) => {
      if (source !== reading) return
      progress.remove()
      show(section, view, reading)
    },
    (error: unknown) => {
      if (source !== reading) return
      progress.remove()
      failed(section, error)
    },
  )
}

function show(section: HTMLElement, view: ModelView, reading: ModelSource): void {
  try {
    drawModel(section, view, reading)
  } catch (error) {
    failed(section, error)
  }
}

/** A bug, an exhausted browser or no worker: still words, never a blank or half-built preview. */
function failed(section: HTMLElement, error: unknown): void {
  clearModel(section)
  section.hidden = false
  const reason = error instanceof Error ? error.message : String(error)
  section.append(
    message(`The model could not be drawn (${reason}). The export's content is below.`),
  )
}

function drawModel(section: HTMLElement, view: ModelView, reading: ModelSource): void {
  if (!view.ok) {
    section.append(message(view.message))
    return
  }
  section.append(summary(view))
  const viewport = element('div', 'viewport')
  const fillNote = element('p', 'model-fill')
  fillNote.dataset['testid'] = 'fill-note'
  fillNote.hidden = true
  section.append(viewport, fillNote)
  const preview = createPreview(viewport, view.drawn, fillNote)
  if (typeof preview === 'string') {
    viewport.remove()
    section.append(message(`${preview} The export's content is below.`))
    return
  }
  current = preview
  if (preview.drawnCount < view.displayCount) {
    section.insertBefore(drawnLine(preview.drawnCount, view.displayCount), viewport)
  }
  section.append(
    element(
      'p',
      'hint',
      'Drag to turn, scroll or pinch to zoom, right-drag or two fingers to pan.',
    ),
  )
  if (view.animationCount > 0) {
    section.append(animationPlayer(view.animationCount, reading, view.drawn, preview))
  }
  if (problemCount(view.problems) > 0) section.append(problemList(view.problems))
}

/** Says how many displays the picture shows when it does not show them all. */
function drawnLine(drawn: number, all: number): HTMLElement {
  const line = element(
    'p',
    'model-drawn',
    `Drawn ${drawn.toLocaleString('en')} of ${all.toLocaleString('en')} displays: ` +
      `the preview draws at most ${MAX_DRAWN_DISPLAYS.toLocaleString('en')}, and leaves out ` +
      'those listed below.',
  )
  line.dataset['testid'] = 'drawn-count'
  return line
}

/** Removes the model (a new lookup, or an error); the page ends the worker that kept it. */
export function clearModel(section: HTMLElement): void {
  source = null
  current?.dispose()
  current = null
  section.replaceChildren()
  section.hidden = true
}

function summary(view: Extract<ModelView, { ok: true }>): HTMLElement {
  const line = element('p', 'model-summary')
  const count = element('strong', undefined, `${view.displayCount} displays`)
  count.dataset['testid'] = 'display-count'
  const parts = Object.entries(view.kinds)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`)
  const n = view.animationCount
  const animationsText = n === 0 ? 'no animation' : `${n} animation${n === 1 ? '' : 's'}`
  line.append(count, ` (${parts.join(', ')}), ${animationsText}`)
  return line
}

function message(text: string): HTMLElement {
  const note = element('p', 'model-message', text)
  note.dataset['testid'] = 'model-message'
  return note
}

function problemList(problems: Problems): HTMLElement {
  const box = element('details', 'model-problems')
  const total = problemCount(problems)
  box.append(
    element(
      'summary',
      undefined,
      `${total} part${total === 1 ? '' : 's'} could not be read or drawn`,
    ),
  )
  const list = element('ul')
  for (const problem of problems.list.slice(0, SHOWN_PROBLEMS)) {
    list.append(element('li', undefined, problem))
  }
  if (total > SHOWN_PROBLEMS) {
    list.append(element('li', undefined, `and ${total - SHOWN_PROBLEMS} more`))
  }
  box.append(list)
  return box
}
