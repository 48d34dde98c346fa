/**
 * The animation picker under the preview: find an animation by name, choose it, play or pause
 * it, step a frame back or forward. The animations stay in the model's worker (model-reader.ts):
 * the picker lists the first MAX_LISTED_ANIMATIONS matches of what is typed, never one entry per
 * animation (an export can hold a million), and fetches the chosen one's frames. Time runs at
 * Minecraft's 20 ticks per second; a frame is `stepTicks` ticks, and each pose blends over its
 * `interpolation_duration` (src/model/timeline.ts). A playing animation loops.
 */
import type { AnimationMatches } from '../model/animation-search.js'
import type { Display } from '../model/displays.js'
import { buildTimeline, type Timeline } from '../model/timeline.js'
import { element } from './dom.js'
import type { ModelSource } from './model-reader.js'
import type { Preview } from './model-preview.js'

export const TICKS_PER_SECOND = 20

/**
 * The controls for the `count` animations of `source`, driving `preview` of `displays`. Hidden
 * until the first animation is ready to play.
 */
export function animationPlayer(
  count: number,
  source: ModelSource,
  displays: readonly Display[],
  preview: Preview,
): HTMLElement {
  const bar = element('div', 'player')
  bar.hidden = true
  const search = element('input')
  search.type = 'search'
  search.placeholder = 'Find an animation'
  search.setAttribute('aria-label', 'Find an animation')
  search.hidden = count <= 1
  const picker = element('select')
  picker.id = 'animation'
  picker.setAttribute('aria-label', 'Animation')
  const listed = element('output', 'listed')
  const back = button('◀ Frame', 'Previous frame')
  const play = button('Play', 'Play')
  const forward = button('Frame ▶', 'Next frame')
  const clock = element('output')
  clock.id = 'animation-clock'
  bar.append(search, picker, back, play, forward, clock, listed)

  let timeline: Timeline | null = null
  let tick = 0
  let playing: { startedAt: number; fromTick: number; frame: number } | null = null
  let searches = 0
  let choosing = 0
  let shown = -1

  function show(at: number): void {
    if (timeline === null) return
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
    if (playing === null || timeline === null) return
    const elapsed = ((now - playing.startedAt) / 1000) * TICKS_PER_SECOND
    const length = Math.max(timeline.durationTicks, 1)
    show((playing.fromTick + elapsed) % length)
    playing.frame = requestAnimationFrame(run)
  }

  function step(direction: 1 | -1): void {
    if (timeline === null) return
    pause()
    const size = timeline.stepTicks
    const frame = Math.round(tick / size) + direction
    const last = Math.floor(timeline.durationTicks / size)
    show((((frame % (last + 1)) + last + 1) % (last + 1)) * size)
  }

  /** Lists the matches of the search; the latest search wins over slower earlier ones. */
  async function find(query: string): Promise<AnimationMatches | null> {
    const asked = ++searches
    const matches = await source.find(query)
    if (asked !== searches) return null
    const chosen = picker.value
    picker.replaceChildren(
      ...matches.choices.map(({ index, label }) => {
        const option = element('option', undefined, label)
        option.value = String(index)
        return option
      }),
    )
    if (matches.choices.some((c) => String(c.index) === chosen)) picker.value = chosen
    listed.value =
      matches.total > matches.choices.length
        ? `${matches.choices.length} of ${matches.total.toLocaleString('en')} listed: type to narrow`
        : matches.total === 0
          ? 'none match'
          : ''
    return matches
  }

  /** Loads the animation at `index` and shows its first tick. */
  async function choose(index: number): Promise<void> {
    const asked = ++choosing
    const animation = await source.animation(index)
    if (asked !== choosing || animation === null) return
    pause()
    timeline = buildTimeline(animation, displays)
    shown = index
    show(0)
    bar.hidden = false
  }

  search.addEventListener('input', () => {
    // The picker shows the first match unless the playing one is still listed: play what it shows.
    void find(search.value).then(() => {
      if (picker.value !== '' && Number(picker.value) !== shown) void choose(Number(picker.value))
    })
  })
  picker.addEventListener('change', () => void choose(Number(picker.value)))
  play.addEventListener('click', () => {
    if (timeline === null) return
    if (playing !== null) return pause()
    play.textContent = 'Pause'
    play.setAttribute('aria-label', 'Pause')
    const fromTick = tick >= timeline.durationTicks ? 0 : tick
    playing = { startedAt: performance.now(), fromTick, frame: requestAnimationFrame(run) }
  })
  back.addEventListener('click', () => step(-1))
  forward.addEventListener('click', () => step(1))
  void find('').then((matches) => {
    const first = matches?.choices[0]
    if (first !== undefined) void choose(first.index)
  })
  return bar
}

function button(text: string, label: string): HTMLButtonElement {
  const made = element('button', 'secondary', text)
  made.type = 'button'
  made.setAttribute('aria-label', label)
  return made
}
