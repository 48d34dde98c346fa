/**
 * The exports the word vectors are made of: a display model of three parts and a hitbox, whose
 * passengers, frame commands, animations or members a vector changes, and the one shape of a
 * vector.
 */
export const P = '[MODELSERVERTAG]'
export const PARTS = [
  ['block_display', `${P}_0`],
  ['item_display', `${P}_1`],
  ['text_display', `${P}_2`],
]
const HITBOX_TAG = `${P}_3`
export const tagOf = (type) =>
  type === 'interaction' ? HITBOX_TAG : PARTS.find(([t]) => t === type)[1]
export const part = ([type, tag], extra = '') => `{id:"minecraft:${type}",Tags:["${tag}"]${extra}}`
export const FRAME_PATH = 'content.datapack.anim_keyframes.w.0[0]'
export const PASSENGER_PATH = 'content.passengers[0]'
export const swapCase = (word) =>
  (word[0] === word[0].toUpperCase() ? word[0].toLowerCase() : word[0].toUpperCase()) +
  word.slice(1)

/** An export: passengers (one string), frame commands (animation `w`, frame `0`), a hitbox. */
export function exportOf({ passengers, frame, animations, contentExtra = '', rootPrefix = '' }) {
  const content = {
    datapack: {
      anim_keyframes: animations ?? {
        w: { 0: frame ?? [dataMerge('block_display', '{interpolation_duration:0}')] },
      },
    },
    hitbox: [`summon minecraft:interaction ~ ~ ~ {Tags:["${HITBOX_TAG}"]}`],
    passengers: [passengers ?? PARTS.map((p) => part(p)).join(',')],
    project_id: 'words',
  }
  const text = JSON.stringify(content)
  return `{${rootPrefix}"content":${text.slice(0, -1)}${contentExtra}}}`
}

/** A frame command that merges `compound` into the parts `selector` finds (by default, `type`'s). */
export function dataMerge(type, compound, selector = `@e[type=${type},tag=${tagOf(type)}]`) {
  return `data merge entity ${selector} ${compound}`
}

/** An export whose one frame command merges `compound` into `type`'s parts (or `selector`'s). */
export const merging = (type, compound, selector) =>
  exportOf({ frame: [dataMerge(type, compound, selector)] })

/** An export whose frame makes the parts `selector` finds glow. */
export const glowing = (selector) => merging('block_display', '{Glowing:1b}', selector)

export const playsound = (args) => `playsound ${args}`

/** One vector: `word` allowed where it belongs, and refused for `reason` at `path`, `found`. */
export const vector = (kind, word, allowed, refused, reason, path, found) => ({
  kind,
  word,
  allowed,
  refused,
  reason,
  path,
  found,
})
