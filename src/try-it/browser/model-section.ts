/**
 * The model part of the page: how many displays the export holds, its 3D preview and the
 * animation picker. When the model cannot be drawn (no passengers, unreadable SNBT, no WebGL)
 * it says so in words; the JSON tree below stays either way, and there is never a blank canvas.
 */
import { readAnimations } from '../model/animations.js'
import { readDisplays, type Display } from '../model/displays.js'
import { animationPlayer } from './animation-player.js'
import { element } from './dom.js'
import { createPreview, type Preview } from './model-preview.js'

/** Problems listed at most; the rest are counted. */
const SHOWN_PROBLEMS = 5

let current: Preview | null = null

/** Shows the model of an export's `content` in `section`, replacing what was there. */
export function showModel(section: HTMLElement, content: unknown): void {
  clearModel(section)
  section.hidden = false
  try {
    drawModel(section, content)
  } catch (error) {
    // A bug or an exhausted browser: still words, never a blank or half-built preview.
    clearModel(section)
    section.hidden = false
    const reason = error instanceof Error ? error.message : String(error)
    section.append(
      message(`The model could not be drawn (${reason}). The export's content is below.`),
    )
  }
}

function drawModel(section: HTMLElement, content: unknown): void {
  const reading = readDisplays(content)
  if (!reading.ok) {
    section.append(message(reading.message))
    return
  }
  const { animations, problems: animationProblems } = readAnimations(content)
  section.append(summary(reading.displays, animations.length))
  const viewport = element('div', 'viewport')
  section.append(viewport)
  const preview = createPreview(viewport, reading.displays)
  if (typeof preview === 'string') {
    viewport.remove()
    section.append(message(`${preview} The export's content is below.`))
    return
  }
  current = preview
  section.append(
    element(
      'p',
      'hint',
      'Drag to turn, scroll or pinch to zoom, right-drag or two fingers to pan.',
    ),
  )
  if (animations.length > 0) section.append(animationPlayer(animations, reading.displays, preview))
  const problems = [...reading.problems, ...animationProblems]
  if (problems.length > 0) section.append(problemList(problems))
}

/** Removes the model (a new lookup, or an error). */
export function clearModel(section: HTMLElement): void {
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

function problemList(problems: string[]): HTMLElement {
  const box = element('details', 'model-problems')
  box.append(
    element(
      'summary',
      undefined,
      `${problems.length} part${problems.length === 1 ? '' : 's'} could not be read`,
    ),
  )
  const list = element('ul')
  for (const problem of problems.slice(0, SHOWN_PROBLEMS))
    list.append(element('li', undefined, problem))
  if (problems.length > SHOWN_PROBLEMS) {
    list.append(element('li', undefined, `and ${problems.length - SHOWN_PROBLEMS} more`))
  }
  box.append(list)
  return box
}
