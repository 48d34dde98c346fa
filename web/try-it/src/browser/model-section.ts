/**
 * The model part of the page: how many displays the export holds, its 3D preview and the
 * animation picker. When the model cannot be drawn (no passengers, unreadable SNBT, no WebGL)
 * it says so in words; the JSON tree below stays either way, and there is never a blank canvas.
 */
import type { Display } from '../model/displays.js'
import type { ModelRead } from '../model/model-reading.js'
import { MAX_DRAWN_DISPLAYS, placeDisplays } from '../model/placement.js'
import { animationPlayer } from './animation-player.js'
import { element } from './dom.js'
import { startReading, type PendingRead } from './model-reader.js'
import { createPreview, type Preview } from './model-preview.js'

/** Problems listed at most; the rest are counted. */
const SHOWN_PROBLEMS = 5

let current: Preview | null = null
let reading: PendingRead | null = null

/**
 * Shows the model of an export's `content` in `section`, replacing what was there: first that it
 * is being read (in a worker, while the page stays usable), then the model.
 */
export function showModel(section: HTMLElement, content: unknown): void {
  clearModel(section)
  section.hidden = false
  const progress = element('p', 'model-reading', 'Reading the model… ')
  progress.dataset['testid'] = 'model-reading'
  progress.append(element('progress'))
  section.append(progress)
  const pending = (reading = startReading(content))
  pending.result.then(
    (read) => {
      if (reading !== pending) return
      reading = null
      progress.remove()
      show(section, read)
    },
    (error: unknown) => {
      if (reading !== pending) return
      reading = null
      progress.remove()
      failed(section, error)
    },
  )
}

function show(section: HTMLElement, read: ModelRead): void {
  try {
    drawModel(section, read)
  } catch (error) {
    failed(section, error)
  }
}

/** A bug or an exhausted browser: still words, never a blank or half-built preview. */
function failed(section: HTMLElement, error: unknown): void {
  clearModel(section)
  section.hidden = false
  const reason = error instanceof Error ? error.message : String(error)
  section.append(
    message(`The model could not be drawn (${reason}). The export's content is below.`),
  )
}

function drawModel(section: HTMLElement, read: ModelRead): void {
  const reading = read.displays
  if (!reading.ok) {
    section.append(message(reading.message))
    return
  }
  const { animations, problems: animationProblems } = read.animations
  section.append(summary(reading.displays, animations.length))
  const viewport = element('div', 'viewport')
  section.append(viewport)
  const placement = placeDisplays(reading.displays)
  const preview = createPreview(viewport, reading.displays, placement.drawn)
  if (typeof preview === 'string') {
    viewport.remove()
    section.append(message(`${preview} The export's content is below.`))
    return
  }
  current = preview
  if (preview.drawnCount < reading.displays.length) {
    section.insertBefore(drawnLine(preview.drawnCount, reading.displays.length), viewport)
  }
  section.append(
    element(
      'p',
      'hint',
      'Drag to turn, scroll or pinch to zoom, right-drag or two fingers to pan.',
    ),
  )
  if (animations.length > 0) section.append(animationPlayer(animations, reading.displays, preview))
  const problems = [...placement.problems, ...reading.problems, ...animationProblems]
  const more = placement.moreProblems
  if (problems.length > 0) section.append(problemList(problems, more))
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

/** Removes the model (a new lookup, or an error). */
export function clearModel(section: HTMLElement): void {
  reading?.cancel()
  reading = null
  current?.dispose()
  current = null
  section.replaceChildren()
  section.hidden = true
}

function summary(displays: readonly Display[], animationCount: number): HTMLElement {
  const counts = { block: 0, item: 0, text: 0 }
  for (const display of displays) counts[display.kind]++
  const line = element('p', 'model-summary')
  const count = element('strong', undefined, `${displays.length} displays`)
  count.dataset['testid'] = 'display-count'
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`)
  const animationsText =
    animationCount === 0
      ? 'no animation'
      : `${animationCount} animation${animationCount === 1 ? '' : 's'}`
  line.append(count, ` (${parts.join(', ')}), ${animationsText}`)
  return line
}

function message(text: string): HTMLElement {
  const note = element('p', 'model-message', text)
  note.dataset['testid'] = 'model-message'
  return note
}

function problemList(problems: string[], uncounted: number): HTMLElement {
  const box = element('details', 'model-problems')
  const total = problems.length + uncounted
  box.append(
    element(
      'summary',
      undefined,
      `${total} part${total === 1 ? '' : 's'} could not be read or drawn`,
    ),
  )
  const list = element('ul')
  for (const problem of problems.slice(0, SHOWN_PROBLEMS))
    list.append(element('li', undefined, problem))
  if (total > SHOWN_PROBLEMS) {
    list.append(element('li', undefined, `and ${total - SHOWN_PROBLEMS} more`))
  }
  box.append(list)
  return box
}
