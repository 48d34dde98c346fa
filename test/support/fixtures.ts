import animated from '../../fixtures/animated-80-displays.json?raw'
import reading from '../../fixtures/reading-41-displays.json?raw'
import stoneGate from '../../fixtures/stone-gate-136-displays.json?raw'

/** The real exports of fixtures/, in their published form. */
export const FIXTURES: Record<string, string> = {
  'animated-80-displays': animated,
  'reading-41-displays': reading,
  'stone-gate-136-displays': stoneGate,
}

export const PLACEHOLDER = '[MODELSERVERTAG]'

/**
 * A synthetic export of at least `bytes` bytes: keyframe commands like the real ones, with a
 * placeholder in every `every`-th command (the others sounds), and one display that carries every tag they target
 * (a display model, which publishing accepts).
 */
export function syntheticExport(bytes: number, every = 1): string {
  const tags: string[] = []
  for (let entity = 0; entity < 500; entity++)
    tags.push(`"${PLACEHOLDER}_${entity}"`, `"fixed_${entity}"`)
  const passengers = JSON.stringify(`{id:"minecraft:item_display",Tags:[${tags.join(',')}]}`)
  const commands: string[] = []
  let size = passengers.length
  for (let i = 0; size < bytes; i++) {
    // A command without a placeholder is a sound: every selector's tag begins with it.
    const command =
      i % every === 0
        ? `data merge entity @e[type=item_display,tag=${PLACEHOLDER}_${i % 500},limit=1] {transformation:{translation:[0.5f,0f,${i}f]},interpolation_duration:0}`
        : `playsound block.note_block.harp block @a ~ ~ ~ 1 ${i % 2}.${i % 500}0`
    commands.push(JSON.stringify(command))
    size += command.length + 3
  }
  return `{"content":{"datapack":{"anim_keyframes":{"default":{"0":[${commands.join(',')}]}}},"passengers":[${passengers}],"project_id":"synthetic"}}`
}
