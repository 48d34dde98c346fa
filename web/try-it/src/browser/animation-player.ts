/**
 * The animation picker under the preview: choose an animation, play or pause it, step a frame
 * back or forward. Time runs at Minecraft's 20 ticks per second; a frame is `stepTicks` ticks,
 * and each pose blends over its `interpolation_duration` (src/try-it/model/timeline.ts). A
 * playing animation loops.
 */
import type { Animation } from '../model/animations.js'
import type { Display } from '../model/displays.js'
import { buildTimeline, type Timeline } from '../model/timeline.js'
import { element } from './dom.js'
import type { Preview } from './model-preview.js'

export const TICKS_PER_SECOND = 20

/** The controls for `animations`, driving `preview`. */
export function animationPlayer(
  animations: readonly Animation[],
  displays: readonly Display[],
  preview: Preview,
): HTMLElement {
  const bar = element('div', 'player')
  const picker = element('select')
  picker.id = 'animation'
  picker.setAttribute('aria-label', 'Animation')
  for (const [i, animation] of animations.entries()) {
    const option = element(
      'option',
      undefined,
      `${animation.name} (${animation.frames.length} frames)`,
    )
    option.value = String(i)
    picker.append(option)
  }
  const back = button('◀ Frame', 'Previous frame')
  const play = button('Play', 'Play')
  const forward = button('Frame ▶', 'Next frame')
  const clock = element('output')
  clock.id = 'animation-clock'
  bar.append(picker, back, play, forward, clock)

  const timelines = new Map<number, Timeline>()
  let timeline = timelineOf(0)
  let tick = 0
  let playing: { startedAt: number; fromTick: number; frame: number } | null = null

  function timelineOf(i: number): Timeline {
    let found = timelines.get(i)
    if (found === undefined) {
      found = buildTimeline(animations[i]!, displays)
      timelines.set(i, found)
    }
    return found
  }

  function show(at: number): void {
    tick = at
    preview.setMatrices(timeline.matricesAt(tick))
    const frame = Math.floor(tick / timeline.stepTicks)
    clock.value = `tick ${Math.floor(tick)} of ${timeline.durationTicks} · frame ${frame}`
  }

  function pause(): void {
    if (playing !== null) cancelAnimationFrame(playing.frame)
    playing = null
    play.textContent = 'Play'
    play.setAttribute('aria-label', 'Play')
  }

  function run(now: number): void {
    if (playing === null) return
    const elapsed = ((now - playing.startedAt) / 1000) * TICKS_PER_SECOND
    const length = Math.max(timeline.durationTicks, 1)
    show((playing.fromTick + elapsed) % length)
    playing.frame = requestAnimationFrame(run)
  }

  function step(direction: 1 | -1): void {
    pause()
    const size = timeline.stepTicks
    const frame = Math.round(tick / size) + direction
    const last = Math.floor(timeline.durationTicks / size)
    show((((frame % (last + 1)) + last + 1) % (last + 1)) * size)
  }

  picker.addEventListener('change', () => {
    pause()
    timeline = timelineOf(Number(picker.value))
    show(0)
  })
  play.addEventListener('click', () => {
    if (playing !== null) return pause()
    play.textContent = 'Pause'
    play.setAttribute('aria-label', 'Pause')
    const fromTick = tick >= timeline.durationTicks ? 0 : tick
    playing = { startedAt: performance.now(), fromTick, frame: requestAnimationFrame(run) }
  })
  back.addEventListener('click', () => step(-1))
  forward.addEventListener('click', () => step(1))
  show(0)
  return bar
}

function button(text: string, label: string): HTMLButtonElement {
  const made = element('button', 'secondary', text)
  made.type = 'button'
  made.setAttribute('aria-label', label)
  return made
}
