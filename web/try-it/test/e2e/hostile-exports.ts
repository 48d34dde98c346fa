/**
 * Exports built to hurt the try-it page, each within what the service accepts (25 MiB, nesting
 * 256): the sizes a careless or hostile publisher can reach, generated here rather than stored.
 */

/** A block display's SNBT, with a transformation given as 16 numbers. */
function blockDisplay(name: string, transformation: readonly (number | string)[], tag: string) {
  const numbers = transformation.map((n) => (typeof n === 'number' ? `${n}f` : n)).join(',')
  return `{id:"minecraft:block_display",block_state:{Name:"${name}"},transformation:[${numbers}],Tags:["${tag}"]}`
}

/** A matrix that moves by (x, y, z). */
function translation(x: number, y: number, z: number): number[] {
  return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1]
}

function document(content: Record<string, unknown>): string {
  return JSON.stringify({ content: { project_id: 'hostile', ...content } })
}

/**
 * `displays` displays sharing one tag, and an animation of `frames` frames that each move all of
 * them with one command: displays x frames poses for a naive timeline.
 */
export function sharedTagAnimation(displays: number, frames: number): string {
  const passengers = []
  for (let i = 0; i < displays; i++) {
    passengers.push(
      blockDisplay('minecraft:stone', translation(i % 100, 0, Math.floor(i / 100)), 'a'),
    )
  }
  const keyframes: Record<string, string[]> = {}
  for (let f = 0; f < frames; f++) {
    const m = translation(0, (f % 20) / 10, 0).map((n) => `${n}f`)
    keyframes[String(f)] = [
      `data merge entity @e[type=block_display,tag=a] {transformation:[${m.join(',')}],interpolation_duration:1}`,
    ]
  }
  return document({
    passengers: [passengers.join(',')],
    datapack: { anim_keyframes: { wave: keyframes } },
    meta: { animations: { wave: { name: 'Wave', durationTicks: frames, stepTicks: 1 } } },
  })
}

/** An export whose content holds one array of `length` numbers. */
export function longArray(length: number): string {
  return document({ numbers: Array.from({ length }, (_, i) => i) })
}

/** An export whose content holds one string of `chars` characters. */
export function longString(chars: number): string {
  return document({ text: 'x'.repeat(chars) })
}

/** An export whose content holds one object of `count` keys. */
export function manyKeys(count: number): string {
  const keys: Record<string, number> = {}
  for (let i = 0; i < count; i++) keys[`key_${i}`] = i
  return document({ keys })
}

/** An export whose content holds `count` arrays of `length` numbers each. */
export function wideTree(count: number, length: number): string {
  const arrays: Record<string, number[]> = {}
  for (let i = 0; i < count; i++) arrays[`list_${i}`] = Array.from({ length }, (_, j) => j)
  return document(arrays)
}

/** `count` small block displays on a grid, in one passenger string. */
export function manyDisplays(count: number): string {
  const side = Math.ceil(Math.sqrt(count))
  const passengers = []
  for (let i = 0; i < count; i++) {
    const m = [0.5, 0, 0, i % side, 0, 0.5, 0, 0, 0, 0, 0.5, Math.floor(i / side), 0, 0, 0, 1]
    passengers.push(blockDisplay(i % 2 === 0 ? 'minecraft:stone' : 'minecraft:oak_planks', m, 'g'))
  }
  return document({ passengers: [passengers.join(',')] })
}

/** A gold block beside a stone moved `distance` blocks away (written as a double). */
export function farDisplay(distance: string): string {
  const far = ['1f', '0f', '0f', distance, '0f', '1f', '0f', '0f', '0f', '0f', '1f', '0f']
  return document({
    passengers: [
      [
        blockDisplay('minecraft:gold_block', translation(0, 0, 0), 'gold'),
        blockDisplay('minecraft:stone', [...far, '0f', '0f', '0f', '1f'], 'far'),
      ].join(','),
    ],
  })
}

/**
 * `count` displays at one spot, each scaled by `scale`: every box covers the same pixels, so a
 * frame shades each of them `count` times (fill rate, not geometry).
 */
export function stackedBoxes(count: number, scale = 1): string {
  const m = [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1]
  // Unscaled, the shortest display there is: no block state, no transformation (the identity).
  const one =
    scale === 1 ? '{id:"minecraft:block_display"}' : blockDisplay('minecraft:stone', m, 's')
  return document({ passengers: [Array.from({ length: count }, () => one).join(',')] })
}

/** One display and `count` animations, each of one empty frame: the picker's worst case. */
export function manyAnimations(count: number): string {
  const keyframes: Record<string, Record<string, string[]>> = {}
  for (let i = 0; i < count; i++) keyframes[`a${i}`] = { 0: [] }
  return document({
    passengers: [blockDisplay('minecraft:stone', translation(0, 0, 0), 'a')],
    datapack: { anim_keyframes: keyframes },
  })
}

/**
 * An animation whose key is `keyChars` long, with `frames` frames each holding an unreadable
 * command: one problem per frame, each naming the animation.
 */
export function longKeyProblems(keyChars: number, frames: number): string {
  const keyframes: Record<string, string[]> = {}
  for (let f = 0; f < frames; f++) keyframes[String(f)] = ['data merge entity @e[tag=a] {x:']
  return document({
    passengers: [blockDisplay('minecraft:stone', translation(0, 0, 0), 'a')],
    datapack: { anim_keyframes: { ['k'.repeat(keyChars)]: keyframes } },
  })
}
